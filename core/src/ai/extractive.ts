/**
 * Local, model-free text work: what Fieldbook does with no AI model configured. Everything it
 * returns is cut from the source text, so every quote is verbatim by construction.
 */

/** Sentences of a text, each exactly as written (trimmed), in order. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n+/)) {
    const parts = block.match(/[^.!?]+(?:[.!?]+["'\u201D\u2019)]*|$)/g) ?? [];
    for (const p of parts) {
      const s = p.trim();
      if (s.length > 0) out.push(s);
    }
  }
  return out;
}

const STOP = new Set(
  'a an and are as at be but by for from had has have he her his i if in into is it its me my not of on or our she so that the their them they this to was we were what when where which who why will with you your do does did how can could would should about there been than then also just very really'.split(
    ' ',
  ),
);

export function words(text: string): string[] {
  return (text.toLocaleLowerCase('en').match(/[\p{L}\p{N}']+/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
}

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * How many words a text has as Unicode finds them, with dictionaries for scripts written without
 * spaces: a Chinese, Japanese or Thai clause counts its words, not one.
 */
export function wordCount(text: string): number {
  let n = 0;
  for (const s of wordSegmenter.segment(text)) if (s.isWordLike) n += 1;
  return n;
}

/**
 * The sentences that best represent a text: each scored by how frequent its words are in the
 * whole text (a classic frequency summary), longest-winded ones damped; returned in text order.
 */
export function keySentences(text: string, count: number): string[] {
  const all = sentences(text).filter((s) => words(s).length >= 3);
  if (all.length <= count) return all;
  const freq = new Map<string, number>();
  for (const w of words(text)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const scored = all.map((s, index) => {
    const ws = words(s);
    const score = ws.reduce((sum, w) => sum + (freq.get(w) ?? 0), 0) / Math.sqrt(ws.length);
    return { s, index, score };
  });
  return scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map((x) => x.s);
}

/** The sentences of `text` sharing the most words with `question`, best first. */
export function sentencesMatching(text: string, question: string, count: number): string[] {
  const q = new Set(words(question));
  if (q.size === 0) return [];
  return sentences(text)
    .map((s, index) => ({ s, index, score: new Set(words(s).filter((w) => q.has(w))).size }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .map((x) => x.s);
}
