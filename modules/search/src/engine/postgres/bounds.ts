/**
 * How much of a large search the PostgreSQL engine answers exactly. Ranking every one of 400,000
 * matches and counting them all reads each from the table, which no index can spare; what people
 * need is the best page first and a count they can trust. So relevance ranks a bounded set of
 * candidates, and large counts are estimates, said to be so.
 *
 * A type's candidates, by how common its matches are:
 * - common (at least one in RECENT_WINDOW_FACTOR of its newest items, one in TYPED_WINDOW_FACTOR
 *   for a word being typed): its `rankCandidates` most recently updated matches, found walking the
 *   recency index;
 * - up to `exactCountLimit` matches: all of them, read through the text index; the
 *   `rankCandidates` most recent are ranked, so with fewer matches than that the page is exact;
 * - in between: the first `rankCandidates` the text index yields, in table order.
 * Counts are exact where every match was read, estimated from a sample otherwise.
 */
export interface SearchBounds {
  /** Relevance ranks at most this many matches of a result type. */
  rankCandidates: number;
  /** Matches read whole through the text index, counted exactly; beyond, counts are estimates. */
  exactCountLimit: number;
  // Either may be Infinity: every match ranked, every count exact (the benchmark's reference).
  /** Rows of a table an estimate reads (a smaller table is counted whole, exactly). */
  estimateSampleRows: number;
}

/**
 * A type is common when its `rankCandidates` candidates are among its newest
 * `rankCandidates` x RECENT_WINDOW_FACTOR items: walking those costs little, and the text index
 * would hand over every one of its many matches first.
 */
export const RECENT_WINDOW_FACTOR = 5;

/**
 * A word being typed may look further: up to `rankCandidates` x TYPED_WINDOW_FACTOR newest items,
 * as many as its share among the newest says holds the candidates (with room to spare). A prefix
 * is what the text index is worst at: it gathers every match of every word it begins before
 * anything is read (100,000 highlights for "scatt"), while walking 15,000 newest highlights and
 * testing each vector costs a few milliseconds.
 */
export const TYPED_WINDOW_FACTOR = 30;

export const DEFAULT_SEARCH_BOUNDS: SearchBounds = {
  rankCandidates: 500,
  exactCountLimit: 5000,
  estimateSampleRows: 3000,
};

/**
 * An estimate as people read one: two significant digits ("about 410,000"), never at or below
 * the exact limit it is known to be over.
 */
export function roundedEstimate(estimate: number, exactCountLimit: number): number {
  const floor = exactCountLimit + 1;
  const value = Math.max(estimate, floor);
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  const rounded = Math.round(value / unit) * unit;
  return rounded > exactCountLimit ? rounded : Math.ceil(value / unit) * unit;
}
