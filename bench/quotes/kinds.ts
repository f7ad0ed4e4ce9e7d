import { normalizeForQuote } from '../../core/src/ai/quotes.ts';
import { INVENTED, type CorpusNote } from './corpus.ts';

/**
 * The kinds of quote a model writes, each with whether a reader may see it. Exact and normalised
 * quotes, cited or written in the text, are the source's words and are shown; every other kind
 * changes, cuts, joins or invents words, or cites what the reader cannot open, and is dropped.
 */
export const KINDS = [
  'exact',
  'normalised',
  'in prose, verbatim',
  'word changed',
  'negation',
  'number',
  'cut inside a word',
  'stitched',
  "another note's",
  "restricted note's",
  'invented',
  'in prose, invented',
] as const;
export type QuoteKind = (typeof KINDS)[number];

export const VERIFIED_KINDS: ReadonlySet<QuoteKind> = new Set(['exact', 'normalised', 'in prose, verbatim']);
export const isProse = (k: QuoteKind) => k.startsWith('in prose');

export interface ScriptedQuote {
  kind: QuoteKind;
  /** The words as the model writes them (for prose, between quotation marks). */
  text: string;
}

/** A small deterministic generator, so a run is the same every time. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
const wordsOf = (sentence: string) => [...segmenter.segment(sentence)].filter((s) => s.isWordLike);
const spaced = (text: string) => / /.test(text.trim()) && !/[\u3040-\u30FF\u4E00-\u9FFF]/.test(text);

/** A run of whole words of `sentence`, at least `min` of them, chosen by `rnd`. */
function slice(sentence: string, rnd: () => number, min = 3): string {
  const w = wordsOf(sentence);
  if (w.length <= min) return sentence.replace(/[.。]$/, '');
  const start = Math.floor(rnd() * (w.length - min));
  const end = Math.min(w.length - 1, start + min - 1 + Math.floor(rnd() * 3));
  return sentence.slice(w[start]!.index, w[end]!.index + w[end]!.segment.length);
}

const NEGATIONS: ReadonlyArray<[RegExp, string]> = [
  [/[\u0E00-\u0E7F]/, 'ไม่'],
  [/[\u3040-\u30FF]/, 'ない'],
  [/[\u4E00-\u9FFF]/, '不'],
  [/[\u0400-\u04FF]/, 'не'],
  [/[äöüß]|\b(die|der|und|ist)\b/i, 'nicht'],
  [/[éèêàç]|\b(les|des|une)\b/i, 'pas'],
  [/[ñá]|\b(las|los|una|del)\b/i, 'no'],
];
const NEGATION_WORD = /^(not|never|nicht|pas|ne|no|nunca|не|不|没有|ไม่|ない)$/i;

function negated(q: string): string {
  const w = wordsOf(q);
  const existing = w.find((s) => NEGATION_WORD.test(s.segment));
  if (existing)
    return `${q.slice(0, existing.index)}${q.slice(existing.index + existing.segment.length)}`.replace(/ {2}/g, ' ');
  const word = NEGATIONS.find(([re]) => re.test(q))?.[1] ?? 'not';
  const at = w[1] ?? w[0]!;
  return `${q.slice(0, at.index)}${word}${spaced(q) ? ' ' : ''}${q.slice(at.index)}`;
}

function wordChanged(q: string, rnd: () => number): string {
  const w = wordsOf(q);
  const s = w[Math.floor(rnd() * w.length)]!;
  const other = spaced(q) ? 'completely' : /[\u0E00-\u0E7F]/.test(q) ? 'มาก' : '非常';
  return `${q.slice(0, s.index)}${other}${q.slice(s.index + s.segment.length)}`;
}

/**
 * Whole words of `sentence` with the first letter cut off (or the last), where no word boundary
 * of the sentence falls (as Unicode segments it, dictionaries included): a quote that starts or
 * ends inside a word. Null when the chosen words allow no such cut.
 */
function cutInsideWord(sentence: string, rnd: () => number): string | null {
  const w = wordsOf(sentence);
  if (w.length < 3) return null;
  const boundaries = new Set([...segmenter.segment(sentence)].flatMap((x) => [x.index, x.index + x.segment.length]));
  const start = Math.floor(rnd() * (w.length - 2));
  const from = w[start]!;
  const to = w[start + 2]!;
  const end = to.index + to.segment.length;
  const firstLetter = [...from.segment][0]!.length;
  if (!boundaries.has(from.index + firstLetter) && [...from.segment].length >= 2)
    return sentence.slice(from.index + firstLetter, end);
  const lastLetter = [...to.segment].at(-1)!.length;
  if (!boundaries.has(end - lastLetter) && [...to.segment].length >= 2)
    return sentence.slice(from.index, end - lastLetter);
  return null;
}

const NORMALISED: ReadonlyArray<(q: string) => string> = [
  (q) => `“${q.toLocaleUpperCase('en')}”`,
  (q) => q.replace(/ /g, '  ').replace(/'/g, '’'),
  (q) => `"${q.toLocaleLowerCase('en')}"`,
  (q) => `\n${q.replace(/ /g, '\n')} `,
];

/** Whether `key` is in `text` as plain normalised characters, wherever it falls: what no fabricated quote may be. */
const contains = (text: string, q: string) => normalizeForQuote(text).includes(normalizeForQuote(q));

/**
 * One scripted quote of each kind for a note the answer cites: exact and normalised quotes of
 * its words, the same words changed, negated, renumbered, cut inside a word or stitched across
 * sentences, another note's words, the restricted note's words, and invented words; and two in
 * prose, one true and one invented. A kind whose quote could not be made from this note (no
 * number in it) is left out.
 */
export function quotesFor(
  note: CorpusNote,
  others: readonly CorpusNote[],
  restricted: CorpusNote,
  rnd: () => number,
): ScriptedQuote[] {
  const all = [note, ...others, restricted].map((n) => [n.title, ...n.paragraphs].join('\n')).join('\n');
  const own = [note.title, ...note.paragraphs].join('\n');
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const sentence = pick(note.paragraphs);
  const exact = slice(sentence, rnd);
  const out: ScriptedQuote[] = [
    { kind: 'exact', text: exact },
    { kind: 'normalised', text: pick(NORMALISED)(slice(pick(note.paragraphs), rnd)) },
    { kind: 'in prose, verbatim', text: slice(pick(note.paragraphs), rnd) },
  ];
  const fabricated = (kind: QuoteKind, text: string | null) => {
    if (text && text.trim() && !contains(all, text)) out.push({ kind, text });
  };
  fabricated('word changed', wordChanged(slice(pick(note.paragraphs), rnd, 4), rnd));
  fabricated('negation', negated(slice(pick(note.paragraphs), rnd, 4)));
  const numbered = note.paragraphs.filter((p) => /\d/.test(p));
  if (numbered.length) {
    const p = pick(numbered);
    fabricated(
      'number',
      p.replace(/[.。]$/, '').replace(/\d+/, (n) => String(Number(n) + 1)),
    );
  }
  const cut = cutInsideWord(pick(note.paragraphs), rnd);
  // Only "inside a word" if the same letters do not also stand as whole words elsewhere in the note.
  if (cut && !wholeWordsIn(own, cut)) out.push({ kind: 'cut inside a word', text: cut });
  if (note.paragraphs.length >= 3) {
    // The last words of the first sentence joined to the first words of the third: each part is the note's, the whole is not.
    const first = note.paragraphs[0]!.replace(/[.。]$/, '');
    const a = wordsOf(first);
    const third = note.paragraphs[2]!;
    const c = wordsOf(third);
    const tail = first.slice(a.at(-Math.min(3, a.length))!.index);
    const end = c[Math.min(2, c.length - 1)]!;
    fabricated('stitched', `${tail}${spaced(tail) ? ' ' : ''}${third.slice(0, end.index + end.segment.length)}`);
  }
  const other = pick(others);
  const theirs = slice(pick(other.paragraphs), rnd, 4);
  if (!contains(own, theirs)) out.push({ kind: "another note's", text: theirs });
  out.push({ kind: "restricted note's", text: slice(pick(restricted.paragraphs), rnd, 4) });
  out.push({ kind: 'invented', text: pick(INVENTED) });
  out.push({ kind: 'in prose, invented', text: pick(INVENTED) });
  return out;
}

/** Whether `q` occurs in `text` starting and ending on word boundaries, found independently of the verifier. */
function wholeWordsIn(text: string, q: string): boolean {
  for (const line of text.split('\n')) {
    const bounds = new Set([...segmenter.segment(line)].flatMap((x) => [x.index, x.index + x.segment.length]));
    for (let at = line.indexOf(q); at >= 0; at = line.indexOf(q, at + 1))
      if (bounds.has(at) && bounds.has(at + q.length)) return true;
  }
  return false;
}

/** Quotation marks a model writes in prose, in turn: every pair the verifier reads. */
export const PROSE_MARKS: ReadonlyArray<[string, string]> = [
  ['“', '”'],
  ['„', '“'],
  ['«', '»'],
  ['「', '」'],
  ['"', '"'],
];
