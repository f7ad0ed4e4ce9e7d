import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { parseDate } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { bucketSeries } from './buckets.ts';
import { countedInChannel, coveringDays, wholeDays } from './counts.ts';
import { filteredPage, filterWords } from './filter.ts';

export interface DataPointRow {
  id: string;
  workspace_id: string;
  channel_id: string;
  dataset_id: string;
  external_id: string;
  external_url: string | null;
  import_url: string | null;
  source: string;
  content: string;
  created_at: Date;
  raw: unknown;
  person_id: string | null;
  sentiment: string | null;
  fields: Record<string, string | boolean>;
  imported_at: Date;
  updated_at: Date;
}

/** What a data point is read as (not its search vector, which only search uses). */
export const POINT_COLUMNS: ReadonlyArray<keyof DataPointRow> = [
  'id',
  'workspace_id',
  'channel_id',
  'dataset_id',
  'external_id',
  'external_url',
  'import_url',
  'source',
  'content',
  'created_at',
  'raw',
  'person_id',
  'sentiment',
  'fields',
  'imported_at',
  'updated_at',
];

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

const range = { from: dateArg('from'), to: dateArg('to') };

/** A date alone as `to` includes that whole day. */
export const untilOf = (to: Date | null, text: string | null | undefined): Date | null =>
  to && text && /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? new Date(to.getTime() + 86_400_000 - 1) : to;

const encodeCursor = (row: { created_at: Date; id: string }): string =>
  Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');
function decodeCursor(after: string): [string, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as [string, string];
    if (typeof at === 'string' && !Number.isNaN(Date.parse(at)) && /^[0-9a-f-]{36}$/i.test(id)) return [at, id];
  } catch {
    // Falls through to the error below.
  }
  throw badInput('after', 'after must be a cursor this list gave.');
}

const listArgs = z.object({
  channelId: idSchema('channelId'),
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(CHANNEL_LIMITS.pageSize, `A page can have at most ${CHANNEL_LIMITS.pageSize} data points (first).`)
    .nullish(),
  after: z.string().max(200, 'after must be a cursor this list gave.').nullish(),
  search: z.string().trim().max(2000, 'search can be at most 2000 characters long.').nullish(),
  ...range,
});

/**
 * A channel's data points, newest first (by when the feedback was given), a page at a time.
 * `present` dresses the page in the same transaction (the page asks for it with every load).
 */
export async function listDataPoints<T extends DataPointRow = DataPointRow>(
  ctx: RequestContext,
  args: unknown,
  present?: (trx: Knex.Transaction, rows: DataPointRow[]) => Promise<T[]>,
): Promise<{
  nodes: T[];
  endCursor: string | null;
  hasNextPage: boolean;
  totalCount: number;
  totalCountIsEstimate: boolean;
}> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const raw = (args ?? {}) as { to?: string | null };
  const { channelId, first, after, search, from, to } = validate(listArgs, args);
  const until = untilOf(to, raw.to);
  const size = first ?? CHANNEL_LIMITS.defaultDatumCount;
  const words = search ? filterWords(search) : [];
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    const base = () => {
      const q = trx('channel_datapoints').where({ workspace_id: caller.workspaceId, channel_id: channelId });
      if (from) q.where('created_at', '>=', from);
      if (until) q.where('created_at', '<=', until);
      return q;
    };
    const cursor = (q: Knex.QueryBuilder) => {
      if (after) {
        const [at, id] = decodeCursor(after);
        q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [at, id]);
      }
      return q;
    };
    // Whole days are counted by the daily counters; a range that starts or ends inside a day counts its points.
    const days = wholeDays(from, until);
    const inRange = async () =>
      days
        ? countedInChannel(trx, caller.workspaceId, channelId, days)
        : Number(((await base().count<Array<{ count: string }>>('* as count')) as [{ count: string }])[0].count);
    // By the (workspace, channel, created_at, id) index, newest first, from the cursor on: the page costs
    // the same on the first and the thousandth page. The search vector is not read.
    const found = words.length
      ? await filteredPage<DataPointRow>(trx, words, {
          scoped: base,
          after: cursor,
          columns: POINT_COLUMNS,
          limit: size + 1,
          inRange: () => countedInChannel(trx, caller.workspaceId, channelId, coveringDays(from, until)),
        })
      : {
          rows: (await cursor(base())
            .orderBy([
              { column: 'created_at', order: 'desc' },
              { column: 'id', order: 'desc' },
            ])
            .limit(size + 1)
            .select([...POINT_COLUMNS])) as DataPointRow[],
          totalCount: await inRange(),
          isEstimate: false,
        };
    const nodes = found.rows.slice(0, size);
    const shown = present ? await present(trx, nodes) : (nodes as T[]);
    return {
      nodes: shown,
      endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1]!) : null,
      hasNextPage: found.rows.length > size,
      totalCount: found.totalCount,
      totalCountIsEstimate: found.isEstimate,
    };
  });
}

/** One data point of a live channel the caller can read. */
export async function getDataPoint(ctx: RequestContext, args: unknown): Promise<DataPointRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const row = (await trx('channel_datapoints as d')
      .join('channels as c', 'c.id', 'd.channel_id')
      .where({ 'd.id': id, 'd.workspace_id': caller.workspaceId })
      .whereNull('c.deleted_at')
      .first('d.*')) as DataPointRow | undefined;
    if (!row) throw notFound('That data point');
    return row;
  });
}

export const INTERVALS = ['DAY', 'WEEK', 'MONTH'] as const;

const seriesArgs = z.object({
  channelId: idSchema('channelId'),
  interval: z.enum(INTERVALS).nullish(),
  aggregationPeriods: z
    .number()
    .int()
    .min(
      CHANNEL_LIMITS.aggregationPeriods.min,
      `aggregationPeriods must be from ${CHANNEL_LIMITS.aggregationPeriods.min} to ${CHANNEL_LIMITS.aggregationPeriods.max}.`,
    )
    .max(
      CHANNEL_LIMITS.aggregationPeriods.max,
      `aggregationPeriods must be from ${CHANNEL_LIMITS.aggregationPeriods.min} to ${CHANNEL_LIMITS.aggregationPeriods.max}.`,
    )
    .nullish(),
  ...range,
});

/**
 * Data points over time: counted per interval, each bucket spanning `aggregationPeriods`
 * intervals (002 §9: 1 to 5, default 2), oldest first, empty buckets included.
 */
export async function dataPointSeries(
  ctx: RequestContext,
  args: unknown,
): Promise<Array<{ start: Date; count: number }>> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const raw = (args ?? {}) as { to?: string | null };
  const { channelId, interval, aggregationPeriods, from, to } = validate(seriesArgs, args);
  const unit = (interval ?? 'WEEK').toLowerCase();
  const periods = aggregationPeriods ?? CHANNEL_LIMITS.aggregationPeriods.default;
  const until = untilOf(to, raw.to);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    // Buckets start at a midnight (UTC) and span whole days, so a range of whole days is counted
    // from the daily counters; one that starts or ends inside a day counts the points themselves.
    const days = wholeDays(from, until);
    const given = [from, until] as const;
    const source = days
      ? {
          bounds: {
            sql: `select coalesce(?::timestamptz, min(day)::timestamp at time zone 'UTC') as lo, coalesce(?::timestamptz, max(day)::timestamp at time zone 'UTC') as hi
                  from channel_datapoint_counts where workspace_id = ? and channel_id = ? and day >= coalesce(?::date, '-infinity') and day <= coalesce(?::date, 'infinity')`,
            bindings: [...given, caller.workspaceId, channelId, days.fromDay, days.toDay],
          },
          points: {
            sql: `select c.day::timestamp as t, c.count as n from channel_datapoint_counts c, bounds b
                  where c.workspace_id = ? and c.channel_id = ? and c.day >= (b.lo at time zone 'UTC')::date and c.day <= (b.hi at time zone 'UTC')::date`,
            bindings: [caller.workspaceId, channelId],
          },
        }
      : {
          bounds: {
            sql: `select coalesce(?::timestamptz, min(created_at)) as lo, coalesce(?::timestamptz, max(created_at)) as hi
                  from channel_datapoints where workspace_id = ? and channel_id = ? and created_at >= coalesce(?::timestamptz, '-infinity') and created_at <= coalesce(?::timestamptz, 'infinity')`,
            bindings: [...given, caller.workspaceId, channelId, from, until],
          },
          points: {
            sql: `select d.created_at at time zone 'UTC' as t, 1 as n from channel_datapoints d, bounds b
                  where d.workspace_id = ? and d.channel_id = ? and d.created_at >= b.lo and d.created_at <= b.hi`,
            bindings: [caller.workspaceId, channelId],
          },
        };
    return bucketSeries(trx, unit, periods, source.bounds, source.points);
  });
}

/** Data point counts of channels, and points per week over the last 12 weeks (for sparklines). */
export async function channelStats(
  trx: Knex.Transaction,
  workspaceId: string,
  channelIds: readonly string[],
): Promise<Map<string, { count: number; weekly: number[] }>> {
  const stats = new Map(channelIds.map((id) => [id, { count: 0, weekly: new Array<number>(12).fill(0) }]));
  if (!channelIds.length) return stats;
  // One statement: every counter of the channels, the last 12 weeks' also by week.
  const { rows } = await trx.raw<{ rows: Array<{ channel_id: string; week: number | null; count: string }> }>(
    `select channel_id,
            case when day >= (date_trunc('week', now() at time zone 'UTC') - interval '11 weeks')::date
              then (11 - floor(extract(epoch from (date_trunc('week', now() at time zone 'UTC') - date_trunc('week', day::timestamp))) / 604800))::int end as week,
            sum(count) as count
     from channel_datapoint_counts
     where workspace_id = ? and channel_id = any(?)
     group by 1, 2`,
    [workspaceId, [...channelIds]],
  );
  for (const r of rows) {
    const s = stats.get(r.channel_id)!;
    s.count += Number(r.count);
    if (r.week !== null && r.week >= 0 && r.week < 12) s.weekly[r.week] = Number(r.count);
  }
  return stats;
}
