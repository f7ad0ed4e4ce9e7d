import type { FollowFrequency } from '../follows/follows.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The last period of a digest frequency that has ended by `now`, in UTC: yesterday, last week
 * (Monday to Monday) or last month. A digest covers what its person was sent before the period's
 * end and has not yet read or had in a digest.
 */
export function lastEndedPeriod(frequency: FollowFrequency, now: Date): { start: Date; end: Date } {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (frequency === 'DAILY') return { start: new Date(today.getTime() - DAY), end: today };
  if (frequency === 'WEEKLY') {
    const sinceMonday = (today.getUTCDay() + 6) % 7;
    const end = new Date(today.getTime() - sinceMonday * DAY);
    return { start: new Date(end.getTime() - 7 * DAY), end };
  }
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start: new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 1, 1)), end };
}

/** Where the period of a frequency that starts at `start` ends. */
export function periodEnd(frequency: FollowFrequency, start: Date): Date {
  if (frequency === 'DAILY') return new Date(start.getTime() + DAY);
  if (frequency === 'WEEKLY') return new Date(start.getTime() + 7 * DAY);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}
