import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { INTERVALS } from '../datapoints/read.ts';
import { parseDate } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
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
  const input = validate(z.object({ themeId: idSchema('themeId'), interval: z.enum(INTERVALS).nullish(), aggregationPeriods: periodsArg, from: dateArg('from'), to: dateArg('to') }), args);
  const unit = (input.interval ?? 'WEEK').toLowerCase();
  const step = `${input.aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default} ${unit}`;
  return ctx.tx(async (trx) => {
    await themeFor(trx, caller, input.themeId);
    const members = () =>
      trx('channel_theme_members as m')
        .join('channel_datapoints as d', 'd.id', 'm.datapoint_id')
        .where({ 'm.workspace_id': caller.workspaceId, 'm.theme_id': input.themeId })
        .modify((q) => {
          if (input.from) q.where('d.created_at', '>=', input.from);
          if (input.to) q.where('d.created_at', '<=', input.to);
        });
    const bounds = (await members().first(trx.raw('min(d.created_at) as lo'), trx.raw('max(d.created_at) as hi'))) as { lo: Date | null; hi: Date | null };
    const lo = input.from ?? bounds.lo;
    const hi = input.to ?? bounds.hi;
    if (!lo || !hi) return [];
    const { rows } = await trx.raw<{ rows: Array<{ start: Date; count: string }> }>(
      `with buckets as (select generate_series(date_trunc(?, ?::timestamptz at time zone 'UTC'), ?::timestamptz at time zone 'UTC', ?::interval) as start),
       points as (
         select d.created_at from channel_theme_members m join channel_datapoints d on d.id = m.datapoint_id
         where m.workspace_id = ? and m.theme_id = ? and d.created_at >= ? and d.created_at <= ?
       )
       select (b.start at time zone 'UTC') as start, count(p.created_at) as count
       from buckets b left join points p on p.created_at at time zone 'UTC' >= b.start and p.created_at at time zone 'UTC' < b.start + ?::interval
       group by b.start order by b.start limit 1000`,
      [unit, lo, hi, step, caller.workspaceId, input.themeId, lo, hi, step],
    );
    return rows.map((r) => ({ start: r.start, count: Number(r.count) }));
  });
}

/**
 * Emerging themes: each theme's data points in the latest period (aggregationPeriods intervals
 * up to `to`, default now) beside the period before, most grown first.
 */
export async function emergingThemes(ctx: RequestContext, args: unknown): Promise<Array<{ theme: ThemeRow; previousCount: number; currentCount: number }>> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const input = validate(z.object({ channelId: idSchema('channelId'), interval: z.enum(INTERVALS).nullish(), aggregationPeriods: periodsArg, to: dateArg('to') }), args);
  const step = `${input.aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default} ${(input.interval ?? 'WEEK').toLowerCase()}`;
  const to = input.to ?? new Date();
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    const themes = await themesOf(trx, caller.workspaceId, input.channelId);
    const { rows } = await trx.raw<{ rows: Array<{ theme_id: string; previous: string; current: string }> }>(
      `select m.theme_id,
              count(*) filter (where d.created_at >= ?::timestamptz - 2 * ?::interval and d.created_at < ?::timestamptz - ?::interval) as previous,
              count(*) filter (where d.created_at >= ?::timestamptz - ?::interval and d.created_at <= ?::timestamptz) as current
       from channel_theme_members m join channel_datapoints d on d.id = m.datapoint_id
       where m.workspace_id = ? and m.channel_id = ? and m.theme_id is not null
       group by m.theme_id`,
      [to, step, to, step, to, step, to, caller.workspaceId, input.channelId],
    );
    const counts = new Map(rows.map((r) => [r.theme_id, { previousCount: Number(r.previous), currentCount: Number(r.current) }]));
    return themes
      .map((theme) => ({ theme, ...(counts.get(theme.id) ?? { previousCount: 0, currentCount: 0 }) }))
      .sort((a, b) => b.currentCount - b.previousCount - (a.currentCount - a.previousCount) || b.currentCount - a.currentCount);
  });
}
