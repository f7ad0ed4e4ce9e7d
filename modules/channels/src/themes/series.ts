import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { bucketSeries } from '../datapoints/buckets.ts';
import { wholeDays } from '../datapoints/counts.ts';
import { INTERVALS, untilOf } from '../datapoints/read.ts';
import { parseDate } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { before, themeCountsIn } from './counts.ts';
import { themeFor, themesOf, type ThemeRow } from './read.ts';

const { min, max } = CHANNEL_LIMITS.aggregationPeriods;
const periodsArg = z
  .number()
  .int()
  .min(min, `aggregationPeriods must be from ${min} to ${max}.`)
  .max(max, `aggregationPeriods must be from ${min} to ${max}.`)
  .nullish();
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
  const input = validate(
    z.object({
      themeId: idSchema('themeId'),
      interval: z.enum(INTERVALS).nullish(),
      aggregationPeriods: periodsArg,
      from: dateArg('from'),
      to: dateArg('to'),
    }),
    args,
  );
  const unit = (input.interval ?? 'WEEK').toLowerCase();
  const periods = input.aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default;
  const from = input.from;
  const until = untilOf(input.to, raw.to);
  return ctx.tx(async (trx) => {
    await themeFor(trx, caller, input.themeId);
    // As the channel's chart: whole days from the theme's daily counters, a range that starts or
    // ends inside a day from its points (by the (theme, created_at) index).
    const days = wholeDays(from, until);
    const given = [from, until] as const;
    const scope = [caller.workspaceId, input.themeId] as const;
    const source = days
      ? {
          bounds: {
            sql: `select coalesce(?::timestamptz, min(day)::timestamp at time zone 'UTC') as lo, coalesce(?::timestamptz, max(day)::timestamp at time zone 'UTC') as hi
                  from channel_theme_counts where workspace_id = ? and theme_id = ? and day >= coalesce(?::date, '-infinity') and day <= coalesce(?::date, 'infinity')`,
            bindings: [...given, ...scope, days.fromDay, days.toDay],
          },
          points: {
            sql: `select k.day::timestamp as t, k.count as n from channel_theme_counts k, bounds b
                  where k.workspace_id = ? and k.theme_id = ? and k.day >= (b.lo at time zone 'UTC')::date and k.day <= (b.hi at time zone 'UTC')::date`,
            bindings: [...scope],
          },
        }
      : {
          bounds: {
            sql: `select coalesce(?::timestamptz, min(created_at)) as lo, coalesce(?::timestamptz, max(created_at)) as hi
                  from channel_theme_members where workspace_id = ? and theme_id = ? and created_at >= coalesce(?::timestamptz, '-infinity') and created_at <= coalesce(?::timestamptz, 'infinity')`,
            bindings: [...given, ...scope, from, until],
          },
          points: {
            sql: `select m.created_at at time zone 'UTC' as t, 1 as n from channel_theme_members m, bounds b
                  where m.workspace_id = ? and m.theme_id = ? and m.created_at >= b.lo and m.created_at <= b.hi`,
            bindings: [...scope],
          },
        };
    return bucketSeries(trx, unit, periods, source.bounds, source.points);
  });
}

/**
 * Emerging themes: each theme's data points in the latest period (aggregationPeriods intervals
 * up to `to`, default now) beside the period before, most grown first. Both periods are counted
 * from the per-theme daily counters, with the days they start or end inside counted exactly.
 */
export async function emergingThemes(
  ctx: RequestContext,
  args: unknown,
): Promise<Array<{ theme: ThemeRow; previousCount: number; currentCount: number }>> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const input = validate(
    z.object({
      channelId: idSchema('channelId'),
      interval: z.enum(INTERVALS).nullish(),
      aggregationPeriods: periodsArg,
      to: dateArg('to'),
    }),
    args,
  );
  const periods = input.aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default;
  const unit = (input.interval ?? 'WEEK').toLowerCase() as 'day' | 'week' | 'month';
  const to = input.to ?? new Date();
  // The current period is (to - periods, to], the one before (to - 2 × periods, to - periods].
  const p0 = before(to, 2 * periods, unit);
  const p1 = before(to, periods, unit);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    const themes = await themesOf(trx, caller.workspaceId, input.channelId);
    const [previous, current] = await themeCountsIn(trx, caller.workspaceId, input.channelId, [
      { from: p0, until: p1, untilIncluded: false },
      { from: p1, until: to, untilIncluded: true },
    ]);
    return themes
      .map((theme) => ({
        theme,
        previousCount: previous!.get(theme.id) ?? 0,
        currentCount: current!.get(theme.id) ?? 0,
      }))
      .sort(
        (a, b) =>
          b.currentCount - b.previousCount - (a.currentCount - a.previousCount) || b.currentCount - a.currentCount,
      );
  });
}
