import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { bucketSeries } from '../datapoints/buckets.ts';
import { wholeDays } from '../datapoints/counts.ts';
import { INTERVALS, untilOf } from '../datapoints/read.ts';
import { parseDate } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { themeCountsBetween } from './counts.ts';
import { themeFor, themesOf, type ThemeRow } from './read.ts';

const { min, max } = CHANNEL_LIMITS.aggregationPeriods;
const periodsArg = z.number().int().min(min, `aggregationPeriods must be from ${min} to ${max}.`).max(max, `aggregationPeriods must be from ${min} to ${max}.`).nullish();
const dateArg = (key: string) =>
  z
    .string()
    .nullish()
    .transform((s, c) => {
      if (!s) return null;
      const at = parseDate(s);
      if (!at) {
        c.addIssue({ code: 'custom', message: `${key} must be a date in ISO 8601 form, such as 2026-03-01.` });
        return z.NEVER;
      }
      return at;
    });

/**
 * A theme's data points over time, as the channel's chart counts them: one bucket per
 * aggregationPeriods intervals (002 §9: 1 to 5, default 2), oldest first, empty buckets included.
 */
export async function themeSeries(ctx: RequestContext, args: unknown): Promise<Array<{ start: Date; count: number }>> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const raw = (args ?? {}) as { to?: string | null };
  const input = validate(z.object({ themeId: idSchema('themeId'), interval: z.enum(INTERVALS).nullish(), aggregationPeriods: periodsArg, from: dateArg('from'), to: dateArg('to') }), args);
  const unit = (input.interval ?? 'WEEK').toLowerCase();
  const periods = input.aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default;
  const from = input.from;
  const until = untilOf(input.to, raw.to);
  return ctx.tx(async (trx) => {
    await themeFor(trx, caller, input.themeId);
    // As the channel's chart: whole days from the theme's daily counters, a range that starts or
    // ends inside a day from its points (by the (theme, created_at) index).
    const days = wholeDays(from, until);
    const bounds = days
      ? ((await trx('channel_theme_counts')
          .where({ workspace_id: caller.workspaceId, theme_id: input.themeId })
          .modify((q) => {
            if (days.fromDay) q.where('day', '>=', days.fromDay);
            if (days.toDay) q.where('day', '<=', days.toDay);
          })
          .first(trx.raw(`min(day)::timestamp at time zone 'UTC' as lo`), trx.raw(`max(day)::timestamp at time zone 'UTC' as hi`))) as { lo: Date | null; hi: Date | null })
      : ((await trx('channel_theme_members')
          .where({ workspace_id: caller.workspaceId, theme_id: input.themeId })
          .modify((q) => {
            if (from) q.where('created_at', '>=', from);
            if (until) q.where('created_at', '<=', until);
          })
          .first(trx.raw('min(created_at) as lo'), trx.raw('max(created_at) as hi'))) as { lo: Date | null; hi: Date | null });
    const lo = from ?? bounds.lo;
    const hi = until ?? bounds.hi;
    if (!lo || !hi) return [];
    const source = days
      ? {
          sql: `select k.day::timestamp as t, k.count as n from channel_theme_counts k
                where k.workspace_id = ? and k.theme_id = ? and k.day >= (?::timestamptz at time zone 'UTC')::date and k.day <= (?::timestamptz at time zone 'UTC')::date`,
          bindings: [caller.workspaceId, input.themeId, lo, hi],
        }
      : {
          sql: `select m.created_at at time zone 'UTC' as t, 1 as n from channel_theme_members m
                where m.workspace_id = ? and m.theme_id = ? and m.created_at >= ? and m.created_at <= ?`,
          bindings: [caller.workspaceId, input.themeId, lo, hi],
        };
    return bucketSeries(trx, unit, periods, lo, hi, source);
  });
}

/**
 * Emerging themes: each theme's data points in the latest period (aggregationPeriods intervals
 * up to `to`, default now) beside the period before, most grown first. Both periods are counted
 * from the per-theme daily counters, with the days they start or end inside counted exactly.
 */
export async function emergingThemes(ctx: RequestContext, args: unknown): Promise<Array<{ theme: ThemeRow; previousCount: number; currentCount: number }>> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const input = validate(z.object({ channelId: idSchema('channelId'), interval: z.enum(INTERVALS).nullish(), aggregationPeriods: periodsArg, to: dateArg('to') }), args);
  const step = `${input.aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default} ${(input.interval ?? 'WEEK').toLowerCase()}`;
  const to = input.to ?? new Date();
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    const themes = await themesOf(trx, caller.workspaceId, input.channelId);
    // Months are calendar months: the period starts are computed by the database, in UTC.
    const { rows } = await trx.raw<{ rows: Array<{ p0: Date; p1: Date }> }>(`select (?::timestamptz at time zone 'UTC' - 2 * ?::interval) at time zone 'UTC' as p0, (?::timestamptz at time zone 'UTC' - ?::interval) at time zone 'UTC' as p1`, [to, step, to, step]);
    const { p0, p1 } = rows[0]!;
    const previous = await themeCountsBetween(trx, caller.workspaceId, input.channelId, p0, p1, false);
    const current = await themeCountsBetween(trx, caller.workspaceId, input.channelId, p1, to, true);
    return themes
      .map((theme) => ({ theme, previousCount: previous.get(theme.id) ?? 0, currentCount: current.get(theme.id) ?? 0 }))
      .sort((a, b) => b.currentCount - b.previousCount - (a.currentCount - a.previousCount) || b.currentCount - a.currentCount);
  });
}
