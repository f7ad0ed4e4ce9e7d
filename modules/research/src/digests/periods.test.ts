import { describe, expect, it } from 'vitest';
import { lastEndedPeriod, periodEnd } from './periods.ts';

describe('digest periods', () => {
  const now = new Date('2026-03-04T10:30:00Z'); // a Wednesday
  it('ends a day at midnight UTC, a week on Monday and a month on its first', () => {
    expect(lastEndedPeriod('DAILY', now)).toEqual({
      start: new Date('2026-03-03T00:00:00Z'),
      end: new Date('2026-03-04T00:00:00Z'),
    });
    expect(lastEndedPeriod('WEEKLY', now)).toEqual({
      start: new Date('2026-02-23T00:00:00Z'),
      end: new Date('2026-03-02T00:00:00Z'),
    });
    expect(lastEndedPeriod('MONTHLY', now)).toEqual({
      start: new Date('2026-02-01T00:00:00Z'),
      end: new Date('2026-03-01T00:00:00Z'),
    });
    expect(lastEndedPeriod('MONTHLY', new Date('2026-01-15T00:00:00Z')).start).toEqual(
      new Date('2025-12-01T00:00:00Z'),
    );
    expect(lastEndedPeriod('WEEKLY', new Date('2026-03-02T00:00:00Z')).end).toEqual(new Date('2026-03-02T00:00:00Z'));
    for (const frequency of ['DAILY', 'WEEKLY', 'MONTHLY'] as const) {
      const { start, end } = lastEndedPeriod(frequency, now);
      expect(periodEnd(frequency, start)).toEqual(end);
    }
  });
});
