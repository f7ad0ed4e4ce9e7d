/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored as text, or null when it can: PostgreSQL refuses the NUL
 * character in text and jsonb, and a lone surrogate (half an emoji) in jsonb.
 */
export function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'cannot contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode: it contains half of a surrogate pair (\\ud800–\\udfff)';
  return null;
}
