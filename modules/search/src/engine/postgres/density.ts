import type { Knex } from 'knex';
import type { ResultSearch, SearchResultType } from '../../filters/index.ts';
import { RECENT_WINDOW_FACTOR } from './bounds.ts';
import type { Mode } from './branch.ts';
import { tableOf, type Source } from './sources.ts';
import { join, query, sql } from './sql.ts';
import { tsquerySql, vectorSql } from './text-query.ts';

/**
 * The types worth looking for among their newest items: those whose text matches the planner
 * expects to be common (a share of at least half what the recency window needs). Walking the
 * newest items of a type whose matches are rare costs the whole window for nothing, so a rare
 * word goes straight to the text index, and so does a table no larger than what the text index
 * path reads whole (`readWhole`): it reads all its matches, counts them exactly, and ranks their
 * newest, which is what the window would have found. A larger table the window covers whole is
 * always tried. A wrong guess costs time, never the answer.
 */
export async function likelyCommon(
  trx: Knex.Transaction,
  searched: ReadonlyArray<{ search: ResultSearch; source: Source }>,
  mode: Mode,
  candidates: number,
  readWhole: number,
): Promise<Set<SearchResultType>> {
  const out = new Set<SearchResultType>();
  const window = candidates * RECENT_WINDOW_FACTOR;
  const texted = searched.filter(({ search }) => search.text !== null);
  if (texted.length === 0 || mode === 'fuzzy') return out;
  // One statement for every table (migration 0036): its size, its items and the planner's
  // estimate of its matches. The query written out, not joined in as the searches do: the planner
  // estimates from the words' frequencies only when it sees the query itself. And the word being
  // typed taken whole: the planner has no frequency for a prefix (it guesses 2 % of any table),
  // while the whole word's matches are some of the prefix's, which is what this asks.
  const wholes = texted.map(({ search }) => {
    const text = search.text!;
    return tsquerySql({ ...text, words: text.prefix === null ? text.words : [...text.words, text.prefix], prefix: null });
  });
  const planned = await query<{ n: number; table_rows: number | null; items: number; matches: number }>(
    trx,
    sql`select n, table_rows, items, matches from search_plan_rows(
      ${texted.map(({ source }) => tableOf(source))}::text[],
      ${texted.map(({ search, source }) => vectorSql(search.text!, source).text)}::text[],
      array[${join(wholes, ', ')}]::tsquery[])`,
  );
  for (const row of planned) {
    const { search } = texted[row.n - 1]!;
    const rows = Number(row.table_rows ?? -1);
    if (rows >= 0 && rows <= readWhole) continue;
    // A table the window covers whole (or never analyzed): its newest are all of it, few to read.
    if (rows <= window) out.add(search.type);
    // Row-level security holds both to the workspace, so the share is of the workspace's items.
    else if (Number(row.items) > window && Number(row.matches) * RECENT_WINDOW_FACTOR * 2 >= Number(row.items)) out.add(search.type);
  }
  return out;
}
