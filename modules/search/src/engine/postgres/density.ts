import type { Knex } from 'knex';
import type { ResultSearch, SearchResultType } from '../../filters/index.ts';
import { RECENT_WINDOW_FACTOR, TYPED_WINDOW_FACTOR } from './bounds.ts';
import type { Mode } from './branch.ts';
import { tableOf, type Source } from './sources.ts';
import { join, query, raw, sql } from './sql.ts';
import { tsquerySql, vectorSql } from './text-query.ts';

/** What is known of a type's table before searching it (migration 0070). */
export interface TypePlan {
  /** Whether the workspace has any item of the type (trashed ones included). */
  present: boolean;
  /** The planner's figures, when asked: the table's size, the workspace's items, their matches. */
  tableRows: number | null;
  items: number | null;
  matches: number | null;
  /** For a word being typed: the share of the workspace's newest items that match. */
  newestShare: number | null;
}

/** How many of a type's newest items tell how common a word being typed is. */
const NEWEST_PROBE = 200;

/**
 * How much more of the newest items than its share says a word being typed is looked for in: the
 * share comes from NEWEST_PROBE items, so it is rough (1 in 10 is 20 of 200, give or take 4).
 */
const TYPED_WINDOW_MARGIN = 1.5;

/** Tables with a recency index (workspace, updated_at desc, id): their newest items are an index walk. */
const RECENCY_INDEXED = new Set(['notes', 'insights', 'highlights']);

type Searched = ReadonlyArray<{ search: ResultSearch; source: Source }>;

/** How many of a type's newest items to look among, and whether a word being typed's share set it. */
export interface RecentWindow {
  rows: number;
  /**
   * Set from the share among the newest items: the planner cannot tell how many of the window
   * match, so it must be held to reading it in order (see withOrderedJoins).
   */
  typed: boolean;
}

/**
 * One statement for every type searched (migration 0070): whether the workspace has any item of
 * it, and for the types in `estimated`, the planner's estimate of their matches. The query is
 * written out, not joined in as the searches do: the planner estimates from the words'
 * frequencies only when it sees the query itself. And the word being typed is taken whole: the
 * planner has no frequency for a prefix (it guesses 2 % of any table), while the whole word's
 * matches are some of the prefix's, which is what density asks.
 */
export async function planTypes(
  trx: Knex.Transaction,
  workspaceId: string,
  searched: Searched,
  estimated: ReadonlySet<SearchResultType>,
): Promise<Map<SearchResultType, TypePlan>> {
  const queries = searched.map(({ search }) => {
    const text = search.text;
    if (text === null || !estimated.has(search.type)) return raw('null::tsquery');
    return tsquerySql({
      ...text,
      words: text.prefix === null ? text.words : [...text.words, text.prefix],
      prefix: null,
    });
  });
  const probes = searched.map(({ search, source }) =>
    search.text === null ||
    search.text.prefix === null ||
    !estimated.has(search.type) ||
    !RECENCY_INDEXED.has(tableOf(source))
      ? raw('null::tsquery')
      : tsquerySql(search.text),
  );
  const rows = await query<{
    n: number;
    present: boolean;
    table_rows: number | null;
    items: number | null;
    matches: number | null;
    newest_share: number | null;
  }>(
    trx,
    sql`select n, present, table_rows, items, matches, newest_share from search_plan_types(${workspaceId}::uuid,
      ${searched.map(({ source }) => tableOf(source))}::text[],
      ${searched.map(({ search, source }) => (search.text === null ? 'null' : vectorSql(search.text, source).text))}::text[],
      array[${join(queries, ', ')}]::tsquery[], array[${join(probes, ', ')}]::tsquery[], ${NEWEST_PROBE}::int)`,
  );
  const out = new Map<SearchResultType, TypePlan>();
  const num = (v: number | string | null): number | null => (v === null ? null : Number(v));
  for (const row of rows) {
    out.set(searched[row.n - 1]!.search.type, {
      present: row.present,
      tableRows: num(row.table_rows),
      items: num(row.items),
      matches: num(row.matches),
      newestShare: num(row.newest_share),
    });
  }
  return out;
}

/**
 * The types worth looking for among their newest items: those whose text matches the planner
 * expects to be common (a share of at least half what the recency window needs). Walking the
 * newest items of a type whose matches are rare costs the whole window for nothing, so a rare
 * word goes straight to the text index, and so does a table no larger than what the text index
 * path reads whole (`readWhole`): it reads all its matches, counts them exactly, and ranks their
 * newest, which is what the window would have found. A larger table the window covers whole is
 * always tried (with bounds where the window is larger than what is read whole). A word being
 * typed, whose frequency the planner cannot tell, is common when its share of the newest items
 * (`newestShare`) says a window of at most TYPED_WINDOW_FACTOR times the candidates holds them;
 * its window is then as large as that share needs. A wrong guess costs time, never the answer.
 * Each type tried is given the number of its newest items to look among.
 */
export function likelyCommon(
  searched: Searched,
  plans: ReadonlyMap<SearchResultType, TypePlan>,
  mode: Mode,
  candidates: number,
  readWhole: number,
): Map<SearchResultType, RecentWindow> {
  const out = new Map<SearchResultType, RecentWindow>();
  const window = candidates * RECENT_WINDOW_FACTOR;
  if (mode === 'fuzzy') return out;
  for (const { search } of searched) {
    const plan = plans.get(search.type);
    if (search.text === null || !plan?.present || plan.items === null || plan.matches === null) continue;
    const rows = plan.tableRows ?? -1;
    if (rows >= 0 && rows <= readWhole) continue;
    // A table the window covers whole (or never analyzed): its newest are all of it, few to read;
    // but when the text index path reads that many matches whole anyway, it finds the same
    // candidates in the one statement, so the window is not worth a round trip of its own.
    if (rows <= window) {
      if (window > readWhole) out.set(search.type, { rows: window, typed: false });
    }
    // Row-level security holds both to the workspace, so the share is of the workspace's items.
    else if (plan.items > window && plan.matches * RECENT_WINDOW_FACTOR * 2 >= plan.items)
      out.set(search.type, { rows: window, typed: false });
    // A word being typed, as common among the newest items as a window of at most
    // TYPED_WINDOW_FACTOR times the candidates needs: that window, or less when it is commoner.
    else if (plan.newestShare !== null && plan.newestShare > 0) {
      const needed = Math.ceil((candidates * TYPED_WINDOW_MARGIN) / plan.newestShare);
      if (needed <= candidates * TYPED_WINDOW_FACTOR)
        out.set(search.type, { rows: Math.max(window, needed), typed: true });
    }
  }
  return out;
}
