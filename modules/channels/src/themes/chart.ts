import type { Knex } from 'knex';
import type { RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor } from '../channels/channels.ts';
import { themesOf } from './read.ts';

/**
 * A channel's data points by theme, as dashboards draw them: each theme's count, and per day,
 * week or month the count of every theme shown. The largest themes are drawn one by one; the
 * others and the points in no theme count in each bucket's total only, so totals always add up
 * to the channel's data points.
 */
export const THEME_CHART = {
  /** Themes drawn one by one (beyond that a chart's colours stop telling them apart). */
  themes: 8,
  /** The latest buckets drawn: about a year of days, every week or month a channel holds. */
  buckets: 400,
} as const;

export type ThemeChartInterval = 'DAY' | 'WEEK' | 'MONTH';

export interface ThemeChartData {
  total: number;
  themes: Array<{ id: string; title: string; count: number }>;
  /** Oldest first, empty buckets included; `counts` follows the order of `themes`. */
  series: Array<{ start: Date; total: number; counts: number[] }>;
}

export async function themeChartData(
  trx: Knex.Transaction,
  workspaceId: string,
  channelId: string,
  interval: ThemeChartInterval,
): Promise<ThemeChartData> {
  const unit = interval.toLowerCase();
  const shown = (await themesOf(trx, workspaceId, channelId))
    .filter((t) => (t.datum_count ?? 0) > 0)
    .slice(0, THEME_CHART.themes);
  // From the daily counters: the channel's per bucket, and the shown themes' per bucket.
  const { rows } = await trx.raw<{ rows: Array<{ start: Date; theme_id: string | null; count: string }> }>(
    `select (date_trunc(?, c.day::timestamp) at time zone 'UTC') as start, null::uuid as theme_id, sum(c.count) as count
     from channel_datapoint_counts c where c.workspace_id = ? and c.channel_id = ? group by 1
     union all
     select (date_trunc(?, k.day::timestamp) at time zone 'UTC') as start, k.theme_id, sum(k.count) as count
     from channel_theme_counts k where k.workspace_id = ? and k.theme_id = any(?::uuid[]) group by 1, 2`,
    [unit, workspaceId, channelId, unit, workspaceId, shown.map((t) => t.id)],
  );
  const index = new Map(shown.map((t, i) => [t.id, i]));
  const byStart = new Map<number, { total: number; counts: number[] }>();
  let total = 0;
  for (const r of rows) {
    const at = new Date(r.start).getTime();
    let bucket = byStart.get(at);
    if (!bucket) byStart.set(at, (bucket = { total: 0, counts: shown.map(() => 0) }));
    const n = Number(r.count);
    // A bucket's total is the channel's count; a theme's row adds to its column only.
    const i = r.theme_id ? index.get(r.theme_id) : undefined;
    if (i !== undefined) bucket.counts[i]! += n;
    else if (!r.theme_id) {
      bucket.total += n;
      total += n;
    }
  }
  const series: ThemeChartData['series'] = [];
  if (byStart.size) {
    const starts = [...byStart.keys()].sort((a, b) => a - b);
    // Buckets step from the first to the last in UTC, empty ones included.
    for (let at = new Date(starts[0]!); at.getTime() <= starts.at(-1)!; at = next(at, interval)) {
      series.push({ start: at, ...(byStart.get(at.getTime()) ?? { total: 0, counts: shown.map(() => 0) }) });
    }
  }
  return {
    total,
    themes: shown.map((t) => ({ id: t.id, title: t.title, count: t.datum_count ?? 0 })),
    series: series.slice(-THEME_CHART.buckets),
  };
}

function next(at: Date, interval: ThemeChartInterval): Date {
  const d = new Date(at);
  if (interval === 'MONTH') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCDate(d.getUTCDate() + (interval === 'WEEK' ? 7 : 1));
  return d;
}

/** The chart of a channel the member may read; NOT_FOUND (from channelFor) otherwise. */
export async function channelThemeChart(
  member: RequestContext,
  channelId: string,
  interval: ThemeChartInterval,
): Promise<ThemeChartData> {
  const caller = callerOf(member, CHANNEL_PERMISSIONS.read);
  return member.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    return themeChartData(trx, caller.workspaceId, channelId, interval);
  });
}
