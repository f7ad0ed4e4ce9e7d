import type { Knex } from 'knex';

/** Where a series' counts come from: rows of (t timestamp without time zone in UTC, n count). */
export interface SeriesSource {
  sql: string;
  bindings: readonly Knex.Value[];
}

/**
 * Counts over time in buckets of `periods` × `unit` from `lo` to `hi`, oldest first, empty buckets
 * included (at most 1000). One pass: each row's bucket is computed from its date (months counted
 * as months, days and weeks as fixed lengths), then the buckets are filled in. A source of daily
 * counters (t at midnight) buckets exactly as the points would, since buckets start at a midnight.
 */
export async function bucketSeries(trx: Knex.Transaction, unit: string, periods: number, lo: Date, hi: Date, source: SeriesSource): Promise<Array<{ start: Date; count: number }>> {
  const step = `${periods} ${unit}`;
  const { rows } = await trx.raw<{ rows: Array<{ start: Date; count: string }> }>(
    `with origin as (select date_trunc(?, ?::timestamptz at time zone 'UTC') as o),
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
     from generate_series((select o from origin), ?::timestamptz at time zone 'UTC', ?::interval) as g(start)
     left join counts c on c.start = g.start
     order by g.start
     limit 1000`,
    [unit, lo, unit, periods, periods, step, step, ...source.bindings, hi, step],
  );
  return rows.map((r) => ({ start: r.start, count: Number(r.count) }));
}
