import { describe, expect, it } from 'vitest';
import { deletionCutoff, isRetentionDays, retentionWindows, runDay, RETENTION_DAYS } from './policy.ts';

const now = new Date('2025-06-30T03:00:00Z');

describe('data retention policy', () => {
  it('offers the periods of 002 §9 only', () => {
    expect(RETENTION_DAYS).toEqual([30, 60, 90, 180, 365]);
    expect(isRetentionDays(90)).toBe(true);
    expect(isRetentionDays(45)).toBe(false);
  });

  it('warns 7 days before the end of the period and deletes 7 days after the warning', () => {
    const w = retentionWindows(now, 30);
    expect(w.expiredBefore.toISOString()).toBe('2025-05-31T03:00:00.000Z');
    expect(w.warnBefore.toISOString()).toBe('2025-06-07T03:00:00.000Z');
    expect(w.deleteAfter.toISOString()).toBe('2025-07-07T03:00:00.000Z');
    expect(w.trashBefore.toISOString()).toBe('2025-05-31T03:00:00.000Z');
  });

  it('deletes only what is both past the period and announced', () => {
    const expired = new Date('2025-05-31T00:00:00Z');
    expect(deletionCutoff(expired, null)).toBeNull();
    expect(deletionCutoff(expired, new Date('2025-05-01T00:00:00Z'))?.toISOString()).toBe('2025-05-01T00:00:00.000Z');
    expect(deletionCutoff(expired, new Date('2025-06-07T00:00:00Z'))).toEqual(expired);
  });

  it('names the UTC day of a run', () => {
    expect(runDay(new Date('2025-06-30T23:59:59Z'))).toBe('2025-06-30');
  });
});
