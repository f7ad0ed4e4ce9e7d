/**
 * The one check every AI quote passes before anyone sees it: the quote must occur in its cited
 * source's text. Both sides are normalised the same way (Unicode compatibility forms, any run of
 * whitespace as one space, typographic quotes and apostrophes as plain ones, dashes as hyphens,
 * case ignored) and nothing else: a changed, added or missing word is never accepted.
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

/** Whether `quote` occurs, word for word, in `source`. */
export function isVerbatimQuote(quote: string, source: string): boolean {
  const key = quoteKey(quote);
  // A quote of a letter or two proves nothing about its source.
  if (key.length < 3) return false;
  return normalizeForQuote(source).includes(key);
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
