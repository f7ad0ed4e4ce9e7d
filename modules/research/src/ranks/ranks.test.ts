import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANK,
  evenlySpacedRanks,
  MIN_RANK_GAP,
  needsRebalance,
  RANK_GAP,
  rankAtEnd,
  rankAtStart,
  rankBetween,
} from './ranks.ts';

describe('ranks (000 §9)', () => {
  it('uses default 0, gap 65536 and a minimum difference of 2^-16', () => {
    expect(DEFAULT_RANK).toBe(0);
    expect(RANK_GAP).toBe(65536);
    expect(MIN_RANK_GAP).toBe(1 / 65536);
  });

  it('places items at the ends one gap away, and the first item at the default rank', () => {
    expect(rankAtEnd(null)).toBe(0);
    expect(rankAtEnd(65536)).toBe(131072);
    expect(rankAtStart(undefined)).toBe(0);
    expect(rankAtStart(0)).toBe(-65536);
  });

  it('takes the midpoint between two neighbours, or an end when one is missing', () => {
    expect(rankBetween(0, 65536)).toBe(32768);
    expect(rankBetween(-3, -1)).toBe(-2);
    expect(rankBetween(10, null)).toBe(10 + RANK_GAP);
    expect(rankBetween(null, 10)).toBe(10 - RANK_GAP);
    expect(rankBetween(null, null)).toBe(0);
    expect(() => rankBetween(5, 5)).toThrow(RangeError);
    expect(() => rankBetween(6, 5)).toThrow(RangeError);
  });

  it('asks for rebalancing once neighbours get closer than the minimum difference', () => {
    expect(needsRebalance(0, RANK_GAP)).toBe(false);
    expect(needsRebalance(0, 2 * MIN_RANK_GAP)).toBe(false);
    expect(needsRebalance(0, 1.5 * MIN_RANK_GAP)).toBe(true);
    expect(needsRebalance(7, 7)).toBe(true);
    expect(needsRebalance(null, 7)).toBe(false);
    expect(needsRebalance(7, undefined)).toBe(false);
  });

  it('runs out of room after about 32 drops between the same neighbours', () => {
    let next = RANK_GAP;
    let drops = 0;
    while (!needsRebalance(0, next)) {
      next = rankBetween(0, next);
      drops += 1;
    }
    expect(drops).toBe(32);
  });

  it('renumbers a list evenly from the default rank', () => {
    expect(evenlySpacedRanks(0)).toEqual([]);
    expect(evenlySpacedRanks(4)).toEqual([0, 65536, 131072, 196608]);
  });
});
