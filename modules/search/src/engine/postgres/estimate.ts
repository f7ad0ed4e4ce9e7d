import type { Knex } from 'knex';
import type { ResultSearch, SearchResultType } from '../../filters/index.ts';
import type { SearchRequest } from '../engine.ts';
import { roundedEstimate, type SearchBounds } from './bounds.ts';
import { matchingSql, type Mode } from './branch.ts';
import { sampledTable, sourceFor, tableOf } from './sources.ts';
import { join, query, raw, sql } from './sql.ts';

export interface Estimate {
  count: number;
  /** False when the table was small enough to be read whole, so the count is exact after all. */
  isEstimate: boolean;
}

/**
 * How many items each type matches, from a sample of its table: the whole search (text, filters,
 * access, trash) runs on about `sampleRows` rows picked as whole pages (`TABLESAMPLE SYSTEM`,
 * with a fixed seed, so the same search gives the same estimate from page to page), and the
 * matches found are scaled up. The planner's own estimates were no use here: it takes the words of
 * a phrase as independent and guesses a fixed share for a prefix, so "scattered documents" came
 * out at 494 for 100,000 matches.
 *
 * Only asked for types known to match more than `atLeast`, which no estimate goes below.
 */
export async function estimateCounts(
  trx: Knex.Transaction,
  searches: ReadonlyArray<{ search: ResultSearch; atLeast: number }>,
  request: SearchRequest,
  mode: Mode,
  bounds: SearchBounds,
  sizes: TableSizes,
): Promise<Map<SearchResultType, Estimate>> {
  const out = new Map<SearchResultType, Estimate>();
  const sampled = searches.flatMap(({ search, atLeast }) => {
    const source = sourceFor(search.type);
    return source ? [{ search, source, atLeast, table: tableOf(source) }] : [];
  });
  if (sampled.length === 0) return out;
  const rowsOf = await sizes.of(
    trx,
    sampled.map((s) => s.table),
  );
  const parts = sampled.map(({ search, source, table }) => {
    const rows = rowsOf.get(table) ?? -1;
    // Never analyzed (-1) or small: read it whole.
    const percent = rows <= bounds.estimateSampleRows ? 100 : (100 * bounds.estimateSampleRows) / rows;
    const { from, where } = matchingSql(source, search, request, mode, raw(sampledTable(source, percent)));
    return sql`select ${search.type}::text as type, ${percent}::float8 as percent, count(*) as found from ${from} where ${where}`;
  });
  const found = await query<{ type: SearchResultType; percent: number; found: string }>(
    trx,
    join(parts, ' union all '),
  );
  for (const row of found) {
    const atLeast = sampled.find((s) => s.search.type === row.type)?.atLeast ?? 0;
    const whole = Number(row.percent) >= 100;
    const scaled = (Number(row.found) * 100) / Number(row.percent);
    out.set(
      row.type,
      whole
        ? { count: Number(row.found), isEstimate: false }
        : { count: roundedEstimate(Math.max(scaled, atLeast), bounds.exactCountLimit), isEstimate: true },
    );
  }
  return out;
}

/**
 * Tables' sizes as the statistics have them (pg_class.reltuples, which only ANALYZE and VACUUM
 * change), kept a minute, so an estimate is one statement, not two.
 */
export class TableSizes {
  private readonly known = new Map<string, { rows: number; until: number }>();

  async of(trx: Knex.Transaction, tables: readonly string[]): Promise<Map<string, number>> {
    const now = Date.now();
    const missing = tables.filter((t) => (this.known.get(t)?.until ?? 0) <= now);
    if (missing.length > 0) {
      const rows = await query<{ table: string; rows: number }>(
        trx,
        sql`select c.relname as table, c.reltuples::float8 as rows from pg_class c
            where c.oid = any(array(select to_regclass(name) from unnest(${missing}::text[]) name))`,
      );
      for (const table of missing)
        this.known.set(table, { rows: Number(rows.find((r) => r.table === table)?.rows ?? -1), until: now + 60_000 });
    }
    return new Map(tables.map((t) => [t, this.known.get(t)!.rows]));
  }
}
