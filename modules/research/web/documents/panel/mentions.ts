/** Mentions are stored in comment bodies as @[Name](userId); people type and read them as @Name. */
export interface Mention {
  id: string;
  name: string;
}

const MARKUP = /@\[([^\]]+)\]\(([0-9a-fA-F-]{36})\)/g;

/** The body as people edit it, and the mentions it holds. */
export function fromBody(body: string): { text: string; mentions: Mention[] } {
  const mentions: Mention[] = [];
  const text = body.replace(MARKUP, (_m, name: string, id: string) => {
    mentions.push({ id, name });
    return `@${name}`;
  });
  return { text, mentions };
}

/** The body to send: each @Name of a picked mention still in the text becomes its markup. */
export function toBody(text: string, mentions: readonly Mention[]): string {
  let body = text;
  const byLength = [...mentions].sort((a, b) => b.name.length - a.name.length);
  for (const m of byLength) body = body.split(`@${m.name}`).join(`@[${m.name.replace(/[[\]]/g, '')}](${m.id})`);
  return body;
}

/** Splits a body into plain text and mentions, for showing it. */
export function bodyParts(body: string): Array<{ text: string; mention?: Mention }> {
  const parts: Array<{ text: string; mention?: Mention }> = [];
  let last = 0;
  for (const m of body.matchAll(MARKUP)) {
    if (m.index > last) parts.push({ text: body.slice(last, m.index) });
    parts.push({ text: `@${m[1]}`, mention: { name: m[1]!, id: m[2]! } });
    last = m.index + m[0].length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  return parts;
}

/** The partial name after an @ right before the caret, if the person is typing a mention. */
export function mentionQuery(text: string, caret: number): { query: string; start: number } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]{0,40})$/.exec(before);
  return m ? { query: m[2]!, start: caret - m[2]!.length - 1 } : null;
}
