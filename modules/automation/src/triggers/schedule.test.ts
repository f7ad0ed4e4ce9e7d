import { describe, expect, it } from 'vitest';
import { nextOccurrence, recurrenceSchema } from './schedule.ts';

const r = (x: object) => recurrenceSchema.parse(x);

describe('schedules', () => {
  it('runs daily at a time of day in the workspace’s time zone, across daylight saving', () => {
    const daily = r({ frequency: 'Daily', time: '09:00' });
    expect(nextOccurrence(daily, 'Europe/Paris', new Date('2026-03-28T12:00:00Z')).toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
    expect(nextOccurrence(daily, 'Europe/Paris', new Date('2026-03-27T12:00:00Z')).toISOString()).toBe(
      '2026-03-28T08:00:00.000Z',
    );
    expect(nextOccurrence(daily, 'UTC', new Date('2026-03-28T08:59:00Z')).toISOString()).toBe(
      '2026-03-28T09:00:00.000Z',
    );
  });

  it('runs weekly on one weekday', () => {
    // 2026-11-27 is a Friday; Monday is 1.
    const monday = r({ frequency: 'Weekly', weekday: 1, time: '08:30' });
    expect(nextOccurrence(monday, 'America/New_York', new Date('2026-11-27T00:00:00Z')).toISOString()).toBe(
      '2026-11-30T13:30:00.000Z',
    );
    expect(() => r({ frequency: 'Weekly' })).toThrow('weekday');
  });

  it('runs monthly, on the month’s last day when it is shorter, and yearly', () => {
    const monthly = r({ frequency: 'Monthly', dayOfMonth: 31, time: '00:00' });
    expect(nextOccurrence(monthly, 'UTC', new Date('2026-02-01T00:00:00Z')).toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    const yearly = r({ frequency: 'Yearly', month: 1, dayOfMonth: 15, time: '12:00' });
    expect(nextOccurrence(yearly, 'Asia/Tokyo', new Date('2026-11-27T00:00:00Z')).toISOString()).toBe(
      '2027-01-15T03:00:00.000Z',
    );
    expect(() => r({ frequency: 'Hourly' })).toThrow();
  });
});
