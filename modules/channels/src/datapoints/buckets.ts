import type { Knex } from 'knex';

/** A piece of SQL with its bindings. */
export interface SeriesSql {
  sql: string;
  bindings: readonly Knex.Value[];
}

/**
 * Counts over time in buckets of `periods` × `unit`, oldest first, empty buckets included (at
 * most 1000), in one statement. `bounds` selects one row (lo, hi: timestamptz) — the range asked
 * for, or the first and last point's when open; `source` selects rows (t: timestamp in UTC, n: a
 * count) and may read the bounds as `b.lo` and `b.hi` from `bounds b`. Each row's bucket is
 * computed from its date (months counted as months, days and weeks as fixed lengths), then the
 * buckets are filled in. A source of daily counters (t at midnight) buckets exactly as the points
 * would, since buckets start at a midnight.
 */
export async function bucketSeries(
  trx: Knex.Transaction,
  unit: string,
  periods: number,
  bounds: SeriesSql,
  source: SeriesSql,
): Promise<Array<{ start: Date; count: number }>> {
  const step = `${periods} ${unit}`;
  const { rows } = await trx.raw<{ rows: Array<{ start: Date; count: string }> }>(
    `with bounds as materialized (${bounds.sql}),
     origin as (select date_trunc(?, b.lo at time zone 'UTC') as o, b.hi from bounds b where b.lo is not null and b.hi is not null),
     counts as (
       select case when ? = 'month'
                then origin.o + (floor(((extract(year from x.t) * 12 + extract(month from x.t)) - (extract(year from origin.o) * 12 + extract(month from origin.o))) / ?) * ?) * interval '1 month'
                else origin.o + floor(extract(epoch from (x.t - origin.o)) / extract(epoch from ?::interval)) * ?::interval
              end as start,
              sum(x.n) as count
       from origin, (${source.sql}) x
       group by 1
     )
     select (g.start at time zone 'UTC') as start, coalesce(c.count, 0) as count
     from origin, generate_series(origin.o, origin.hi at time zone 'UTC', ?::interval) as g(start)
     left join counts c on c.start = g.start
     order by g.start
     limit 1000`,
    [...bounds.bindings, unit, unit, periods, periods, step, step, ...source.bindings, step],
  );
  return rows.map((r) => ({ start: r.start, count: Number(r.count) }));
}
