import { cutText } from '@fieldbook/core';

/**
 * Mentions are written in the comment body as `@[Name](userId)`: the name is what the author saw
 * when they picked the member, the id is who is meant. The body keeps the markup so a client can
 * render each mention as a link; plain text (emails, excerpts) shows `@Name`.
 */
const MENTION = /@\[([^\]\n]{1,100})\]\(([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)/gi;

/** Each member mentioned in a body once, in order of first mention, with the name written there. */
export function mentionsIn(body: string): Array<{ userId: string; name: string }> {
  const found = new Map<string, string>();
  for (const match of body.matchAll(MENTION)) {
    const id = match[2]!.toLowerCase();
    if (!found.has(id)) found.set(id, match[1]!);
  }
  return [...found].map(([userId, name]) => ({ userId, name }));
}

/** The distinct user ids mentioned in a body, in order of first mention (lower-cased). */
export const mentionedUserIds = (body: string): string[] => mentionsIn(body).map((m) => m.userId);

/** The body as people read it: each mention becomes `@Name`. */
export function plainBody(body: string): string {
  return body.replace(MENTION, (_m, name: string) => `@${name}`);
}

/**
 * The start of a body for notifications: plain text, whitespace folded, at most `max` characters,
 * cut between characters as people see them (never through an emoji).
 */
export function excerpt(body: string, max = 200): string {
  const text = plainBody(body).replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : `${cutText(text, max - 1).trimEnd()}…`;
}
