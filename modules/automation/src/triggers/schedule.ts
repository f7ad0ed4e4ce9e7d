import { z } from 'zod';
import { RECURRENCES } from '@fieldbook/core';

/**
 * Recurrence of a scheduled trigger (001 §3.1 userSchedule): Daily, Weekly on one weekday,
 * Monthly on a day of the month (the month's last day when it is shorter), Yearly on a date; at a
 * time of day read in the workspace's time zone, so 09:00 stays 09:00 across daylight saving.
 */
export const recurrenceSchema = z
  .object({
    frequency: z.enum(RECURRENCES, { error: 'recurrence.frequency must be Daily, Weekly, Monthly or Yearly.' }),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'recurrence.time must be a time of day as HH:MM.')
      .default('09:00'),
    weekday: z
      .number()
      .int()
      .min(0, 'recurrence.weekday is 0 (Sunday) to 6 (Saturday).')
      .max(6, 'recurrence.weekday is 0 (Sunday) to 6 (Saturday).')
      .nullish(),
    dayOfMonth: z
      .number()
      .int()
      .min(1, 'recurrence.dayOfMonth is 1 to 31.')
      .max(31, 'recurrence.dayOfMonth is 1 to 31.')
      .nullish(),
    month: z.number().int().min(1, 'recurrence.month is 1 to 12.').max(12, 'recurrence.month is 1 to 12.').nullish(),
  })
  .superRefine((r, ctx) => {
    if (r.frequency === 'Weekly' && r.weekday == null)
      ctx.addIssue({
        code: 'custom',
        path: ['weekday'],
        message: 'recurrence.weekday: a weekly schedule runs on one weekday.',
      });
    if ((r.frequency === 'Monthly' || r.frequency === 'Yearly') && r.dayOfMonth == null)
      ctx.addIssue({
        code: 'custom',
        path: ['dayOfMonth'],
        message: 'recurrence.dayOfMonth: say which day of the month.',
      });
    if (r.frequency === 'Yearly' && r.month == null)
      ctx.addIssue({
        code: 'custom',
        path: ['month'],
        message: 'recurrence.month: a yearly schedule runs in one month.',
      });
  });

export type RecurrenceSpec = z.infer<typeof recurrenceSchema>;

/** True when `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function localParts(date: Date, tz: string): LocalParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

/** The instant a wall-clock time in `tz` names (the later one when the clocks go back). */
export function zonedInstant(year: number, month: number, day: number, hour: number, minute: number, tz: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const offset = (at: number) => {
    const p = localParts(new Date(at), tz);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - at;
  };
  let t = wall - offset(wall);
  t = wall - offset(t);
  return new Date(t);
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function matchesDay(r: RecurrenceSpec, year: number, month: number, day: number): boolean {
  const dom = Math.min(r.dayOfMonth ?? 1, daysInMonth(year, month));
  switch (r.frequency) {
    case 'Daily':
      return true;
    case 'Weekly':
      return new Date(Date.UTC(year, month - 1, day)).getUTCDay() === r.weekday;
    case 'Monthly':
      return day === dom;
    case 'Yearly':
      return month === r.month && day === dom;
  }
}

/** The first occurrence strictly after `after`. */
export function nextOccurrence(r: RecurrenceSpec, tz: string, after: Date): Date {
  const start = localParts(after, tz);
  const [hour, minute] = r.time.split(':').map(Number) as [number, number];
  for (let i = 0; i <= 800; i++) {
    const d = new Date(Date.UTC(start.year, start.month - 1, start.day + i));
    const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
    if (!matchesDay(r, y, m, day)) continue;
    const at = zonedInstant(y, m, day, hour, minute, tz);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('No occurrence of this schedule within two years.');
}
