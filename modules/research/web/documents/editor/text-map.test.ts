import { getSchema } from '@tiptap/core';
import { Node as PMNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { plainText, type RichTextNode } from '../../../src/notes/rich-text.ts';
import { documentExtensions } from './extensions.ts';
import { offsetsToRanges, selectionToOffsets, textMap } from './text-map.ts';

const schema = getSchema(documentExtensions({ placeholder: '' }));
const p = (...content: RichTextNode[]): RichTextNode =>
  content.length ? { type: 'paragraph', content } : { type: 'paragraph' };
const t = (text: string, marks?: string[]): RichTextNode => ({
  type: 'text',
  text,
  ...(marks ? { marks: marks.map((m) => ({ type: m })) } : {}),
});
const li = (...content: RichTextNode[]): RichTextNode => ({ type: 'listItem', content });
const docOf = (...content: RichTextNode[]): PMNode => PMNode.fromJSON(schema, { type: 'doc', content });

const DOCS: Record<string, PMNode> = {
  paragraphs: docOf(p(t('The checkout is confusing')), p(t('I gave up '), t('twice', ['bold']))),
  'empty paragraphs': docOf(p(t('One')), p(), p(), p(t('Two'))),
  'hard breaks': docOf(p(t('Line one'), { type: 'hardBreak' }, t('line two'))),
  'headings, lists and quotes': docOf(
    { type: 'heading', attrs: { level: 2 }, content: [t('Pains')] },
    {
      type: 'bulletList',
      content: [li(p(t('Slow setup'))), li(p(t('No export')), { type: 'bulletList', content: [li(p(t('CSV')))] })],
    },
    { type: 'blockquote', content: [p(t('“I gave up”'))] },
    { type: 'horizontalRule' },
    p(t('Emoji 🙂 counts twice')),
  ),
  citations: docOf(
    p(t('Before')),
    { type: 'citation', attrs: { highlightId: 'h1', text: 'quoted', noteTitle: 'Call', noteId: 'n1' } },
    p(t('After')),
  ),
};

describe('the plain text of a document', () => {
  for (const [name, doc] of Object.entries(DOCS)) {
    it(`matches the server’s derivation for ${name}`, () => {
      expect(textMap(doc).text).toBe(plainText(doc.toJSON() as RichTextNode));
    });
  }

  it('maps a selection to the offsets of the text it covers, and back', () => {
    const doc = DOCS['headings, lists and quotes']!;
    const map = textMap(doc);
    for (const word of ['Pains', 'No export', 'CSV', 'I gave up', '🙂 counts']) {
      const start = map.text.indexOf(word);
      const ranges = offsetsToRanges(map, start, start + word.length);
      expect(ranges).toHaveLength(1);
      const { from, to } = ranges[0]!;
      expect(doc.textBetween(from, to)).toBe(word);
      expect(selectionToOffsets(map, from, to)).toEqual({ start, end: start + word.length });
    }
  });

  it('spans blocks: a selection across paragraphs includes the newline between them', () => {
    const doc = DOCS.paragraphs!;
    const map = textMap(doc);
    const start = map.text.indexOf('confusing');
    const end = map.text.indexOf(' up');
    const ranges = offsetsToRanges(map, start, end);
    expect(ranges.map((r) => doc.textBetween(r.from, r.to))).toEqual(['confusing', 'I gave']);
    expect(selectionToOffsets(map, ranges[0]!.from, ranges[1]!.to)).toEqual({ start, end });
    expect(map.text.slice(start, end)).toBe('confusing\nI gave');
  });

  it('finds no text in a selection of nothing but block boundaries', () => {
    const doc = DOCS['empty paragraphs']!;
    const map = textMap(doc);
    expect(selectionToOffsets(map, 5, 8)).toBeNull();
  });
});
