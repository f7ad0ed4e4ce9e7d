import type { Knex } from 'knex';

/**
 * Reads of the daily counters (channel_datapoint_counts, kept by a trigger in the transaction of
 * every data point write): counts per channel, dataset and UTC day. They answer whatever counts
 * whole days; a range that starts or ends inside a day is counted from the data points themselves.
 */

const DAY_MS = 86_400_000;

/** A range of whole UTC days, as counters can answer it: [fromDay, toDay] both included, either open. */
export interface DayRange {
  fromDay: string | null;
  toDay: string | null;
}

const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The whole days a range covers, or null when it starts or ends inside a day. `from` must be a
 * midnight (UTC) and `until` the last millisecond of a day, as a date alone gives them.
 */
export function wholeDays(from: Date | null, until: Date | null): DayRange | null {
  if (from && from.getTime() % DAY_MS !== 0) return null;
  if (until && (until.getTime() + 1) % DAY_MS !== 0) return null;
  return { fromDay: from ? dayOf(from) : null, toDay: until ? dayOf(until) : null };
}

/** The whole days a range touches (for an estimate: the days it starts and ends inside count whole). */
export function coveringDays(from: Date | null, until: Date | null): DayRange {
  return { fromDay: from ? dayOf(from) : null, toDay: until ? dayOf(until) : null };
}

function scoped(trx: Knex.Transaction, workspaceId: string, days: DayRange | null) {
  const q = trx('channel_datapoint_counts').where({ workspace_id: workspaceId });
  if (days?.fromDay) q.where('day', '>=', days.fromDay);
  if (days?.toDay) q.where('day', '<=', days.toDay);
  return q;
}

/** Data points of a channel within whole days. */
export async function countedInChannel(
  trx: Knex.Transaction,
  workspaceId: string,
  channelId: string,
  days: DayRange | null,
): Promise<number> {
  const row = (await scoped(trx, workspaceId, days)
    .where({ channel_id: channelId })
    .first(trx.raw('coalesce(sum(count), 0)::bigint as n'))) as { n: string };
  return Number(row.n);
}

/** Data points per channel. */
export async function countedPerChannel(
  trx: Knex.Transaction,
  workspaceId: string,
  channelIds: readonly string[],
): Promise<Map<string, number>> {
  const rows = (await scoped(trx, workspaceId, null)
    .whereIn('channel_id', channelIds)
    .groupBy('channel_id')
    .select('channel_id', trx.raw('sum(count)::bigint as n'))) as Array<{ channel_id: string; n: string }>;
  return new Map(rows.map((r) => [r.channel_id, Number(r.n)]));
}

/** Data points per dataset. */
export async function countedPerDataset(
  trx: Knex.Transaction,
  workspaceId: string,
  datasetIds: readonly string[],
): Promise<Map<string, number>> {
  const rows = (await scoped(trx, workspaceId, null)
    .whereIn('dataset_id', datasetIds)
    .groupBy('dataset_id')
    .select('dataset_id', trx.raw('sum(count)::bigint as n'))) as Array<{ dataset_id: string; n: string }>;
  return new Map(rows.map((r) => [r.dataset_id, Number(r.n)]));
}

/** Data points of a whole workspace (what maximumChannelsDataPoints caps). */
export async function countedInWorkspace(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  const row = (await scoped(trx, workspaceId, null).first(trx.raw('coalesce(sum(count), 0)::bigint as n'))) as {
    n: string;
  };
  return Number(row.n);
}
