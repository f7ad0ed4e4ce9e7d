import { keySentences, sentences } from '@fieldbook/core';
import type { SummaryKind } from './frameworks.ts';
import type { SummaryPart } from './part.ts';

/**
 * A summary without a model: the text's most representative sentences, quoted word for word
 * from the note (frequency scoring), split into chapters by position for the chapter kind.
 */
export function localSummary(kind: SummaryKind, itemId: string, text: string): SummaryPart[] {
  const picked = keySentences(text, kind === 'chapter' ? 6 : 4);
  if (kind !== 'chapter') {
    return [
      { type: 'text', text: `Key sentences from this ${'note'}, quoted as written.` },
      ...picked.map((s) => ({ type: 'quote' as const, itemId, text: s })),
    ];
  }
  // Chapters follow the text's order: thirds of its sentences, each summarised by its key sentence.
  const all = sentences(text);
  const size = Math.ceil(all.length / 3);
  const parts: SummaryPart[] = [];
  for (let i = 0; i < 3 && i * size < all.length; i++) {
    const chunk = all.slice(i * size, (i + 1) * size).join(' ');
    const key = keySentences(chunk, 1)[0] ?? all[i * size]!;
    parts.push({ type: 'section', title: `Part ${i + 1}`, startTime: null, text: key });
    parts.push({ type: 'quote', itemId, text: key });
  }
  return parts;
}
