import type { Knex } from 'knex';

/**
 * Reads of the per-theme daily counters (channel_theme_counts, migration 0086, kept by a trigger
 * in the transaction of every membership write). Whole days come from the counters; the part of a
 * range that starts or ends inside a day is counted from the points of those days alone, so every
 * answer is exact and costs at most two days of points beside the counters.
 */

const DAY_MS = 86_400_000;

/** A theme's data points, as a column of a query over `channel_themes as t`. */
export const THEME_COUNT_SQL = '(select coalesce(sum(k.count), 0) from channel_theme_counts k where k.theme_id = t.id)::int as datum_count';

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Each theme's data points of a channel created in [from, until) (`untilIncluded`: [from, until]).
 * Themes with none are left out.
 */
export async function themeCountsBetween(trx: Knex.Transaction, workspaceId: string, channelId: string, from: Date, until: Date, untilIncluded: boolean): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const add = (rows: Array<{ theme_id: string; n: string | number }>) => {
    for (const r of rows) counts.set(r.theme_id, (counts.get(r.theme_id) ?? 0) + Number(r.n));
  };
  // The whole days inside the range: from the first midnight at or after `from` to the last one before `until`.
  const firstFull = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const lastEnd = Math.floor(until.getTime() / DAY_MS) * DAY_MS;
  const edges = (lo: Date, hi: Date, hiIncluded: boolean) =>
    trx('channel_datapoints as d')
      .join('channel_theme_members as m', 'm.datapoint_id', 'd.id')
      .where({ 'd.workspace_id': workspaceId, 'd.channel_id': channelId })
      .whereNotNull('m.theme_id')
      .where('d.created_at', '>=', lo)
      .where('d.created_at', hiIncluded ? '<=' : '<', hi)
      .groupBy('m.theme_id')
      .select('m.theme_id', trx.raw('count(*) as n')) as unknown as Promise<Array<{ theme_id: string; n: string }>>;
  if (firstFull >= lastEnd) {
    add(await edges(from, until, untilIncluded));
    return counts;
  }
  add(
    (await trx('channel_theme_counts')
      .where({ workspace_id: workspaceId, channel_id: channelId })
      .where('day', '>=', dayOf(firstFull))
      .where('day', '<', dayOf(lastEnd))
      .groupBy('theme_id')
      .select('theme_id', trx.raw('sum(count) as n'))) as Array<{ theme_id: string; n: string }>,
  );
  if (from.getTime() < firstFull) add(await edges(from, new Date(firstFull), false));
  if (until.getTime() > lastEnd || untilIncluded) add(await edges(new Date(lastEnd), until, untilIncluded));
  return counts;
}
