/**
 * Ranks order items by a floating-point number (000 §9): new items start at 0, neighbours are
 * spaced 65536 apart, and an item dropped between two others takes their midpoint. Halving the
 * gap runs out after about 32 drops in the same place, so once neighbours would be closer than
 * about 2^-16 the whole list is renumbered evenly.
 */
export const DEFAULT_RANK = 0;
export const RANK_GAP = 65536;
export const MIN_RANK_GAP = 2 ** -16;

/** The rank after the last item of a list (DEFAULT_RANK for an empty list). */
export function rankAtEnd(last: number | null | undefined): number {
  return last === null || last === undefined ? DEFAULT_RANK : last + RANK_GAP;
}

/** The rank before the first item of a list (DEFAULT_RANK for an empty list). */
export function rankAtStart(first: number | null | undefined): number {
  return first === null || first === undefined ? DEFAULT_RANK : first - RANK_GAP;
}

/**
 * The rank between two neighbours; a missing neighbour means the start or end of the list.
 * Throws when the neighbours are out of order, which means the caller read the list wrongly.
 */
export function rankBetween(previous: number | null | undefined, next: number | null | undefined): number {
  const hasPrevious = previous !== null && previous !== undefined;
  const hasNext = next !== null && next !== undefined;
  if (hasPrevious && hasNext) {
    if (!(previous < next)) throw new RangeError(`Neighbour ranks are out of order: ${previous} is not below ${next}.`);
    return previous + (next - previous) / 2;
  }
  if (hasPrevious) return rankAtEnd(previous);
  if (hasNext) return rankAtStart(next);
  return DEFAULT_RANK;
}

/**
 * Whether placing an item between these neighbours needs the list renumbered first: true when the
 * new item would sit closer than MIN_RANK_GAP to either of them (equal ranks included).
 */
export function needsRebalance(previous: number | null | undefined, next: number | null | undefined): boolean {
  if (previous === null || previous === undefined || next === null || next === undefined) return false;
  return (next - previous) / 2 < MIN_RANK_GAP;
}

/** Evenly spaced ranks for a list of `count` items: 0, 65536, 131072, ... */
export function evenlySpacedRanks(count: number): number[] {
  return Array.from({ length: count }, (_, i) => DEFAULT_RANK + i * RANK_GAP);
}
