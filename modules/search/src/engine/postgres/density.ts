import type { Knex } from 'knex';
import type { ResultSearch, SearchResultType } from '../../filters/index.ts';
import { RECENT_WINDOW_FACTOR } from './bounds.ts';
import type { Mode } from './branch.ts';
import { tableOf, type Source } from './sources.ts';
import { query, raw, sql, type Sql } from './sql.ts';
import { tsquerySql, vectorSql } from './text-query.ts';

interface Plan {
  Plan: { 'Plan Rows': number };
}

async function plannedRows(trx: Knex.Transaction, statement: Sql): Promise<number> {
  const [row] = await query<{ 'QUERY PLAN': Plan[] }>(trx, sql`explain (format json) ${statement}`);
  return row?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
}

/**
 * The types worth looking for among their newest items: those whose text matches the planner
 * expects to be common (a share of at least half what the recency window needs). Walking the
 * newest items of a type whose matches are rare costs the whole window for nothing, so a rare
 * word goes straight to the text index. Only large tables are asked (a plan costs a little); a
 * table the window covers whole is always tried. A wrong guess costs time, never the answer.
 */
export async function likelyCommon(
  trx: Knex.Transaction,
  searched: ReadonlyArray<{ search: ResultSearch; source: Source }>,
  mode: Mode,
  candidates: number,
): Promise<Set<SearchResultType>> {
  const out = new Set<SearchResultType>();
  const window = candidates * RECENT_WINDOW_FACTOR;
  const texted = searched.filter(({ search }) => search.text !== null);
  if (texted.length === 0 || mode === 'fuzzy') return out;
  const sizes = await query<{ table: string; rows: number }>(
    trx,
    sql`select c.relname as table, c.reltuples::float8 as rows from pg_class c
        where c.oid = any(array(select to_regclass(name) from unnest(${texted.map(({ source }) => tableOf(source))}::text[]) name))`,
  );
  const rowsOf = new Map(sizes.map((s) => [s.table, Number(s.rows)]));
  for (const { search, source } of texted) {
    // A table the window covers whole: its newest are all of it, few to read.
    if ((rowsOf.get(tableOf(source)) ?? 0) <= window) {
      out.add(search.type);
      continue;
    }
    // Row-level security holds both to the workspace, so the share is of the workspace's items.
    const items = await plannedRows(trx, sql`select 1 from ${raw(tableOf(source))} t`);
    // The query written out, not joined in as the searches do: the planner estimates from the
    // words' frequencies only when it sees the query itself. And the word being typed taken whole:
    // the planner has no frequency for a prefix (it guesses 2 % of any table), while the whole
    // word's matches are some of the prefix's, which is what this asks.
    const text = search.text!;
    const whole = { ...text, words: text.prefix === null ? text.words : [...text.words, text.prefix], prefix: null };
    const matches = await plannedRows(trx, sql`select 1 from ${raw(tableOf(source))} t where ${vectorSql(text, source)} @@ ${tsquerySql(whole)}`);
    if (items > window && matches * RECENT_WINDOW_FACTOR * 2 >= items) out.add(search.type);
  }
  return out;
}
