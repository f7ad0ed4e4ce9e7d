import { describe, expect, it } from 'vitest';
import { plainText, richTextSchema, RICH_TEXT_MAX, RICH_TEXT_MAX_DEPTH, type RichTextNode } from './rich-text.ts';

const p = (...text: string[]): RichTextNode => ({
  type: 'paragraph',
  content: text.map((t) => ({ type: 'text', text: t })),
});

describe('rich text', () => {
  it('derives plain text: blocks on their own lines, hard breaks as newlines', () => {
    const doc: RichTextNode = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Interview' }] },
        p('Hello ', 'world'),
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: 'b' }],
        },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [p('one')] },
            { type: 'listItem', content: [p('two')] },
          ],
        },
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

describe('rich text shape', () => {
  const schema = richTextSchema('content');

  it('refuses a document nested 20,000 levels deep with the field named', () => {
    let doc: RichTextNode = { type: 'text', text: 'deep' };
    for (let i = 0; i < 20_000; i++) doc = { type: 'paragraph', content: [doc] };
    const result = schema.safeParse(doc);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('content is nested more than 100 levels deep, the limit.');
  });

  it('refuses content holding null or a non-list, and text that is not a string', () => {
    expect(schema.safeParse({ type: 'doc', content: [null] }).error?.issues[0]?.message).toBe(
      'content has a node that is not a JSON object with a type.',
    );
    expect(schema.safeParse({ type: 'doc', content: 'x' }).error?.issues[0]?.message).toBe(
      'content has a node whose content is not a list.',
    );
    expect(schema.safeParse({ type: 'doc', content: [{ type: 'text', text: 5 }] }).success).toBe(false);
  });

  it('accepts a document nested as deep as the limit', () => {
    let doc: RichTextNode = { type: 'text', text: 'deep' };
    for (let i = 1; i < RICH_TEXT_MAX_DEPTH; i++) doc = { type: 'paragraph', content: [doc] };
    expect(schema.safeParse(doc).success).toBe(true);
  });
});
