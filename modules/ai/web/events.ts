import type { FieldbookHost } from '@fieldbook/extensions-sdk/web';

export interface StreamError {
  errorCode: string;
  message: string;
}

/**
 * POSTs to one of the AI streaming routes and hands each server-sent event to `onEvent` as it
 * arrives. fetch rather than EventSource: it sends the session's bearer token and a JSON body.
 */
export async function postEvents(
  host: FieldbookHost,
  path: string,
  body: unknown,
  onEvent: (event: string, data: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await (host.fetch ?? fetch)(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok || !res.body) {
    const err = (await res.json().catch(() => null)) as {
      message?: string;
      errors?: Array<{ message: string }>;
    } | null;
    throw new Error(err?.message ?? err?.errors?.[0]?.message ?? `The server answered ${res.status}.`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined) onEvent(event, JSON.parse(data) as unknown);
    }
  }
}
