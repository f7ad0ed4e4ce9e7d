/**
 * The one check every quote Fieldbook shows passes first: a quote must occur, word for word, in
 * the text of its source, and a source is only ever what people wrote or imported (notes,
 * insights, highlights, data points), never text a model wrote. Both sides are normalised the
 * same way (Unicode compatibility forms, any run of whitespace as one space, typographic quotes
 * and apostrophes as plain ones, dashes as hyphens, case ignored) and nothing else: a changed,
 * added or missing word is never accepted, and neither is a quote that begins or ends inside a word.
 */
export function normalizeForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u02BC`´]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim()
    .toLocaleLowerCase('en');
}

/** Quote marks and spaces a model may wrap around a quote; they are not part of what it quotes. */
const WRAPPING = /^[\s"']+|[\s"']+$/g;

/** The quote as it is matched: normalised and without wrapping quote marks. Empty when nothing is left. */
export function quoteKey(quote: string): string {
  return normalizeForQuote(quote).replace(WRAPPING, '');
}

/** A quote of a letter or two proves nothing about its source. */
const MIN_QUOTE_CHARS = 3;

/**
 * Word boundaries are Unicode's (UAX #29, as `Intl.Segmenter` finds them): a letter, digit or mark
 * next to another is inside a word, and so is an apostrophe between letters (she'd) or a point or
 * comma between digits (3.5, 1,000). Scripts written without spaces (Chinese, Japanese, Thai, Lao,
 * Khmer, Burmese) have their words found by ICU's dictionaries, so 价格太 is not a quote of
 * 价格太高 while 价格 is. Cheap cases are decided without segmenting: two characters of which
 * neither is a letter, digit or mark always have a boundary between them.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
const WORDISH = /[\p{L}\p{N}\p{M}\p{Pc}'.,:\u00B7\u05F3\u2019]/u;
const HARD_BREAK = /[\s\p{P}\p{S}]/u;
/** Characters around a position that decide whether it is a boundary; further text cannot change it. */
const WINDOW = 200;

function isBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = text[at - 1]!;
  const after = text[at]!;
  if (!WORDISH.test(before) && !WORDISH.test(after)) return true;
  if (/\s/.test(before) || /\s/.test(after)) return true;
  // The window starts and ends just past a space or punctuation so no word is cut where it is read.
  let start = Math.max(0, at - WINDOW);
  if (start > 0) {
    while (start < at - 1 && !HARD_BREAK.test(text[start]!)) start += 1;
    start += 1;
  }
  let end = Math.min(text.length, at + WINDOW);
  if (end < text.length) while (end > at + 1 && !HARD_BREAK.test(text[end - 1]!)) end -= 1;
  if (start >= at) start = Math.max(0, at - WINDOW);
  for (const s of segmenter.segment(text.slice(start, end))) {
    const pos = start + s.index;
    if (pos === at) return true;
    if (pos > at) return false;
  }
  return false;
}

/** Whether `quote` occurs, word for word and starting and ending on word boundaries, in `source`. */
export function isVerbatimQuote(quote: string, source: string): boolean {
  const key = quoteKey(quote);
  if (key.length < MIN_QUOTE_CHARS) return false;
  const text = normalizeForQuote(source);
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1))
    if (isBoundary(text, at) && isBoundary(text, at + key.length)) return true;
  return false;
}

export interface QuoteCandidate {
  /** The cited source (a note, highlight or insight id). */
  sourceId: string;
  text: string;
}

export interface VerifiedQuotes<Q> {
  kept: Q[];
  /** Quotes dropped because their source was not given or their text is not in it. */
  dropped: number;
}

/**
 * Keeps the quotes found in their source and counts the rest. `sources` maps a source id to its
 * text; a quote citing an id that is not there (invented, or one the person cannot read) is dropped.
 */
export function verifyQuotes<Q extends QuoteCandidate>(
  quotes: readonly Q[],
  sources: ReadonlyMap<string, string>,
): VerifiedQuotes<Q> {
  const kept: Q[] = [];
  let dropped = 0;
  for (const q of quotes) {
    const source = sources.get(q.sourceId);
    if (source !== undefined && isVerbatimQuote(q.text, source)) kept.push(q);
    else dropped += 1;
  }
  return { kept, dropped };
}
