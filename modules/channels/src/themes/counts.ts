import type { Knex } from 'knex';

/**
 * Reads of the per-theme daily counters (channel_theme_counts, migration 0086, kept by a trigger
 * in the transaction of every membership write). Whole days come from the counters; the part of a
 * range that starts or ends inside a day is counted from the points of those days alone, so every
 * answer is exact and costs at most two days of points per range beside the counters.
 */

const DAY_MS = 86_400_000;

/** A theme's data points, as a column of a query over `channel_themes as t`. */
export const THEME_COUNT_SQL =
  '(select coalesce(sum(k.count), 0) from channel_theme_counts k where k.theme_id = t.id)::int as datum_count';

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Points created in [from, until), or [from, until] when `untilIncluded`. */
export interface PeriodRange {
  from: Date;
  until: Date;
  untilIncluded: boolean;
}

interface Split {
  /** Whole days [fromDay, toDay), from the counters; null when the range holds none. */
  days: { fromDay: string; toDay: string } | null;
  /** Timestamp ranges counted from the points: [lo, hi) or [lo, hi]. */
  edges: Array<{ lo: Date; hi: Date; hiIncluded: boolean }>;
}

function split(r: PeriodRange): Split {
  // The whole days inside the range: from the first midnight at or after `from` to the last one at or before `until`.
  const firstFull = Math.ceil(r.from.getTime() / DAY_MS) * DAY_MS;
  const lastEnd = Math.floor(r.until.getTime() / DAY_MS) * DAY_MS;
  if (firstFull >= lastEnd) return { days: null, edges: [{ lo: r.from, hi: r.until, hiIncluded: r.untilIncluded }] };
  const edges: Split['edges'] = [];
  if (r.from.getTime() < firstFull) edges.push({ lo: r.from, hi: new Date(firstFull), hiIncluded: false });
  if (r.until.getTime() > lastEnd || r.untilIncluded)
    edges.push({ lo: new Date(lastEnd), hi: r.until, hiIncluded: r.untilIncluded });
  return { days: { fromDay: dayOf(firstFull), toDay: dayOf(lastEnd) }, edges };
}

/**
 * Each theme's data points of a channel in each of `ranges`: one map per range (themes with none
 * left out), read in two statements whatever the number of ranges.
 */
export async function themeCountsIn(
  trx: Knex.Transaction,
  workspaceId: string,
  channelId: string,
  ranges: readonly PeriodRange[],
): Promise<Array<Map<string, number>>> {
  const parts = ranges.map(split);
  const out = ranges.map(() => new Map<string, number>());
  const add = (rows: Array<Record<string, string | number | null>>) => {
    for (const r of rows)
      parts.forEach((_, i) => {
        const n = Number(r[`n${i}`] ?? 0);
        if (n) out[i]!.set(r.theme_id as string, (out[i]!.get(r.theme_id as string) ?? 0) + n);
      });
  };
  const counted = parts
    .map((p, i) => ({ i, days: p.days }))
    .filter((p): p is { i: number; days: NonNullable<Split['days']> } => p.days !== null);
  if (counted.length) {
    const lo = counted.map((c) => c.days.fromDay).sort()[0]!;
    const hi = counted
      .map((c) => c.days.toDay)
      .sort()
      .at(-1)!;
    const columns = parts
      .map((p, i) => (p.days ? `sum(count) filter (where day >= ?::date and day < ?::date) as n${i}` : `0 as n${i}`))
      .join(', ');
    const bindings = parts.flatMap((p) => (p.days ? [p.days.fromDay, p.days.toDay] : []));
    const { rows } = await trx.raw<{ rows: Array<Record<string, string | number | null>> }>(
      `select theme_id, ${columns} from channel_theme_counts where workspace_id = ? and channel_id = ? and day >= ?::date and day < ?::date group by theme_id`,
      [...bindings, workspaceId, channelId, lo, hi],
    );
    add(rows);
  }
  const edges = parts.flatMap((p, i) => p.edges.map((e) => ({ i, ...e })));
  if (edges.length) {
    const range = (e: (typeof edges)[number]) => `(d.created_at >= ? and d.created_at ${e.hiIncluded ? '<=' : '<'} ?)`;
    const columns = parts.map((_, i) => {
      const mine = edges.filter((e) => e.i === i);
      return mine.length ? `count(*) filter (where ${mine.map(range).join(' or ')}) as n${i}` : `0 as n${i}`;
    });
    const { rows } = await trx.raw<{ rows: Array<Record<string, string | number | null>> }>(
      `select m.theme_id, ${columns.join(', ')}
       from channel_datapoints d join channel_theme_members m on m.datapoint_id = d.id
       where d.workspace_id = ? and d.channel_id = ? and m.theme_id is not null and (${edges.map(range).join(' or ')})
       group by m.theme_id`,
      [
        ...parts.flatMap((_, i) => edges.filter((e) => e.i === i).flatMap((e) => [e.lo, e.hi])),
        workspaceId,
        channelId,
        ...edges.flatMap((e) => [e.lo, e.hi]),
      ],
    );
    add(rows);
  }
  return out;
}

/** `at` less `n` days, weeks or months, as PostgreSQL subtracts an interval in UTC (a month from the 31st lands on the month's last day). */
export function before(at: Date, n: number, unit: 'day' | 'week' | 'month'): Date {
  if (unit !== 'month') return new Date(at.getTime() - n * (unit === 'week' ? 7 : 1) * DAY_MS);
  const month = at.getUTCMonth() - n;
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      at.getUTCFullYear(),
      month,
      Math.min(at.getUTCDate(), lastDay),
      at.getUTCHours(),
      at.getUTCMinutes(),
      at.getUTCSeconds(),
      at.getUTCMilliseconds(),
    ),
  );
}
