import { describe, expect, it } from 'vitest';
import { plainText, richTextSchema, RICH_TEXT_MAX, type RichTextNode } from './rich-text.ts';

const p = (...text: string[]): RichTextNode => ({ type: 'paragraph', content: text.map((t) => ({ type: 'text', text: t })) });

describe('rich text', () => {
  it('derives plain text: blocks on their own lines, hard breaks as newlines', () => {
    const doc: RichTextNode = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Interview' }] },
        p('Hello ', 'world'),
        { type: 'paragraph', content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: 'b' }] },
        { type: 'bulletList', content: [{ type: 'listItem', content: [p('one')] }, { type: 'listItem', content: [p('two')] }] },
      ],
    };
    expect(plainText(doc)).toBe('Interview\nHello world\na\nb\none\ntwo');
    expect(plainText(null)).toBe('');
    expect(plainText({ type: 'doc' })).toBe('');
  });

  it('accepts a document up to 5,000,000 serialised characters and names the limit past it', () => {
    const schema = richTextSchema('content');
    const base = JSON.stringify(p('')).length;
    expect(schema.safeParse(p('x'.repeat(RICH_TEXT_MAX - base))).success).toBe(true);
    const over = schema.safeParse(p('x'.repeat(RICH_TEXT_MAX - base + 1)));
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toContain('5,000,000 characters');
    expect(schema.safeParse('text').success).toBe(false);
    expect(schema.safeParse([p('a')]).success).toBe(false);
  });
});
