import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** One request a local provider server received, for a plugin's tests to assert on. */
export interface RecordedRequest {
  method: string;
  /** The path as sent (still percent-encoded). */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** JSON or form bodies parsed; anything else as text (null when empty). */
  body: unknown;
  rawBody: string;
}

function parseJsonOr(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
}

/** Reads a request in full as a local provider server would see it. */
export async function recordRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString('utf8');
  const url = new URL(incoming.url ?? '/', 'http://provider.invalid');
  const type = incoming.headers['content-type'] ?? '';
  let body: unknown = rawBody || null;
  if (type.startsWith('application/json')) body = parseJsonOr(rawBody);
  else if (type.startsWith('application/x-www-form-urlencoded'))
    body = Object.fromEntries(new URLSearchParams(rawBody));
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: incoming.headers,
    body,
    rawBody,
  };
}
