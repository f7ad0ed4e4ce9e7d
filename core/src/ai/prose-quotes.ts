import { isVerbatimQuote, quoteKey } from './quotes.ts';

/**
 * Quotations a model writes inside its prose (a summary paragraph, an answer, an agent's reply):
 * each is verified like a cited quote, against the texts the prose may quote, or removed.
 */

/** What replaces a quotation found in none of the sources: the reader sees something was removed. */
export const UNVERIFIED_QUOTE = '[quote removed: not found in the sources]';

export interface ProseQuotation {
  /** Where the span, quotation marks included, starts and ends in the prose. */
  start: number;
  end: number;
  /** The words between the marks. */
  quote: string;
}

// Pairs read in every language the product handles. A straight or curly single quote counts only
// where it cannot be an apostrophe: it opens after a space or bracket (not after a letter, as in
// customers' or it's) and closes before a space or punctuation, with only in-word apostrophes between.
const FORMS: readonly RegExp[] = [
  /\u201C([^\u201C\u201D\n]+)\u201D/gu, // “…”
  /\u201E([^\u201E\u201C\u201D\n]+)[\u201C\u201D]/gu, // „…“ and „…”
  /\u00AB\u00A0?([^\u00AB\u00BB\n]+?)\u00A0?\u00BB/gu, // «…»
  /\u00BB([^\u00AB\u00BB\n]+)\u00AB/gu, // »…«
  /\u300C([^\u300C\u300D]+)\u300D/gu, // 「…」
  /\u300E([^\u300E\u300F]+)\u300F/gu, // 『…』
  /"([^"\n]+)"/gu,
  /(?<=^|[\s([{\u2014\u2013])['\u2018\u201A]((?:[^'\u2018\u2019\u201A\n]|(?<=\p{L})['\u2019](?=\p{L}))*?[^\s'\u2018\u2019\u201A])['\u2019\u2018](?=$|[\s.,;:!?)\]}\u2014\u2013])/gu,
];

/** Spans shorter than this (a letter, "ok", rock 'n' roll) are not taken for quotations. */
const MIN_QUOTATION_CHARS = 3;

/** The quoted spans of `text`, in order; a span inside another (a quotation within a quotation) is part of it. */
export function findQuotations(text: string): ProseQuotation[] {
  const all: ProseQuotation[] = [];
  for (const form of FORMS)
    for (const m of text.matchAll(form))
      if (quoteKey(m[1]!).length >= MIN_QUOTATION_CHARS)
        all.push({ start: m.index, end: m.index + m[0].length, quote: m[1]! });
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: ProseQuotation[] = [];
  for (const q of all) if (!out.length || q.start >= out.at(-1)!.end) out.push(q);
  return out;
}

/** A text a quotation may come from: what people wrote or imported, never what a model wrote. */
export interface ProseSource {
  id: string;
  text: string;
  /** A quoted title names its source rather than quoting it, so it stays. */
  title?: string;
}

export interface VerifiedProse {
  /** The prose with every quotation found in no source replaced by UNVERIFIED_QUOTE. */
  text: string;
  dropped: number;
  /** Each quotation kept, with the first source (in the order given) that holds it. */
  found: Array<{ sourceId: string; text: string }>;
}

/**
 * Checks every quotation in `prose` against `sources` (pass the ones the prose cites first):
 * kept when a source holds it word for word, replaced and counted otherwise.
 */
export function verifyProse(prose: string, sources: readonly ProseSource[]): VerifiedProse {
  const found: VerifiedProse['found'] = [];
  let dropped = 0;
  let text = '';
  let from = 0;
  for (const q of findQuotations(prose)) {
    const key = quoteKey(q.quote);
    if (sources.some((s) => s.title !== undefined && quoteKey(s.title) === key)) continue;
    const source = sources.find((s) => isVerbatimQuote(q.quote, s.text));
    if (source) {
      found.push({ sourceId: source.id, text: q.quote });
      continue;
    }
    text += prose.slice(from, q.start) + UNVERIFIED_QUOTE;
    from = q.end;
    dropped += 1;
  }
  return { text: text + prose.slice(from), dropped, found };
}
