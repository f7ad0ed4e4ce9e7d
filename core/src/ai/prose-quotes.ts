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

/** Characters that may open a quotation; a single quote only after a space, a bracket or the start. */
const OPENERS = new Set(['\u201C', '\u201E', '\u00AB', '\u00BB', '\u300C', '\u300E', '"']);
const SINGLE_OPENERS = new Set(["'", '\u2018', '\u201A']);
const BEFORE_SINGLE = /[\s([{\u2014\u2013]/u;
/** Held back at most this long waiting for a quotation to close; longer, the mark was not opening one. */
const MAX_HELD = 2000;

/**
 * Prose as a model streams it, passed on as it comes except for quotations: each is held back
 * from its opening mark until it closes, then checked like `verifyProse` and passed on, or
 * replaced. The reader never sees words in quotation marks that no source holds, not even while
 * the answer is being written. `end` passes on what is left and answers how many were replaced.
 */
export class QuoteCheckedStream {
  private held = '';
  private last = '';
  private dropped = 0;

  constructor(
    private readonly sources: readonly ProseSource[],
    private readonly emit: (text: string) => void,
  ) {}

  push(text: string): void {
    this.held += text;
    this.drain(false);
  }

  end(): number {
    this.drain(true);
    return this.dropped;
  }

  private pass(text: string): void {
    if (!text) return;
    this.emit(text);
    this.last = text.at(-1)!;
  }

  private opensAt(i: number): boolean {
    const c = this.held[i]!;
    if (OPENERS.has(c)) return true;
    if (!SINGLE_OPENERS.has(c)) return false;
    const before = i > 0 ? this.held[i - 1]! : this.last;
    return before === '' || BEFORE_SINGLE.test(before);
  }

  private drain(final: boolean): void {
    for (;;) {
      let i = 0;
      while (i < this.held.length && !this.opensAt(i)) i += 1;
      this.pass(this.held.slice(0, i));
      this.held = this.held.slice(i);
      if (!this.held) return;
      const closed = FORMS.map((f) => new RegExp(f.source, 'uy')).find((f) => f.test(this.held));
      if (closed) {
        const span = this.held.slice(0, closed.lastIndex);
        const checked = verifyProse(span, this.sources);
        this.dropped += checked.dropped;
        this.pass(checked.text);
        this.held = this.held.slice(span.length);
        continue;
      }
      // A mark that can no longer open a quotation (the line ended, too long, the text ended) is plain text.
      const lineEnded = this.held.indexOf('\n') > 0 && !/^[\u300C\u300E]/.test(this.held);
      if (final || lineEnded || this.held.length > MAX_HELD) {
        this.pass(this.held[0]!);
        this.held = this.held.slice(1);
        continue;
      }
      return;
    }
  }
}
