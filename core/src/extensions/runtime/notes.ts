import type { JsonValue, RichTextDoc } from '@fieldbook/extensions-sdk/server';

const TITLE_MAX = 200;

/** A note title from whatever a provider gave: one line, at most 200 characters, never empty. */
export function noteTitle(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim();
  return (line || 'Untitled').slice(0, TITLE_MAX);
}

/** Plain text as rich text: a paragraph per line, blank lines dropped. */
export function textToDoc(text: string): RichTextDoc {
  const content: JsonValue[] = text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim().length > 0)
    .map((line) => ({ type: 'paragraph', content: [{ type: 'text', text: line }] }));
  return { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] };
}
