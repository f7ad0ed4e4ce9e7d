import type { Knex } from 'knex';
import { withTenant } from '@fieldbook/core';
import type { ResultSearch, SearchResultType, SearchSort } from '../../filters/index.ts';
import type { ReindexProgress, SearchEngine, SearchHit, SearchRequest, SearchResults } from '../engine.ts';
import { DEFAULT_SEARCH_BOUNDS, type SearchBounds } from './bounds.ts';
import { branchSql, candidatesFor, ranksByRelevance, sortKind, type Mode } from './branch.ts';
import { likelyCommon, planTypes, type RecentWindow } from './density.ts';
import { estimateCounts, TableSizes } from './estimate.ts';
import { MARK_END, MARK_START, snippetHtml } from './snippet.ts';
import { holdToIndexes, withOrderedJoins } from './planner.ts';
import { sourceFor } from './sources.ts';
import { join, query, raw, sql, type Sql } from './sql.ts';
import { fuzzyWords, tsquerySql } from './text-query.ts';

interface HitRow {
  type: SearchResultType;
  type_order: number;
  id: string;
  title: string | null;
  project_id: string | null;
  project_title: string | null;
  parent_id: string | null;
  updated_at: Date;
  score: number | string;
  type_count: number | string | null;
  counted_all: boolean;
}

const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=35, MinWords=15, ShortWord=2`;
/** How close a word must be to count as a typo of it (pg_trgm word similarity, 0..1). */
const FUZZY_THRESHOLD = 0.5;
/** Headlines read at most this much of a long text. */
const HEADLINE_SOURCE_CHARS = 100_000;

/**
 * The default engine: searches the research tables themselves, so there is nothing to index; the
 * stored vectors and trigram indexes of migration 0011 keep up with every write.
 */
export class PostgresSearchEngine implements SearchEngine {
  readonly name = 'postgres';
  private readonly sizes = new TableSizes();

  constructor(
    private readonly db: Knex,
    private readonly bounds: SearchBounds = DEFAULT_SEARCH_BOUNDS,
  ) {}

  async search(request: SearchRequest): Promise<SearchResults> {
    // Set with the transaction's scope, in its first round trip: a filter's link-table lookups (a
    // tag's highlights, then each by its key) are priced as the cached, solid-state reads they are,
    // rather than as disk seeks that make scanning every highlight look cheaper; a common word's
    // text index bitmap stays exact in memory; and one process, so matches come in table order,
    // the same from page to page.
    const planner = { random_page_cost: '1.1', work_mem: '32MB', max_parallel_workers_per_gather: '0' };
    return withTenant(
      this.db,
      { workspaceId: request.workspaceId, userId: request.userId },
      async (trx) => {
        const first = await this.run(trx, request, 'words');
        const typed = request.compiled.searches[0]?.text ?? null;
        // Nothing matched word for word: try close spellings before answering with nothing.
        if (first.totalCount > 0 || typed === null || fuzzyWords(typed).length === 0) return first;
        // pg_trgm's default (0.6) misses one wrong letter in a seven-letter word; for this transaction only.
        await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', '${FUZZY_THRESHOLD}', true)`);
        return this.run(trx, request, 'fuzzy');
      },
      planner,
    );
  }

  /** The tables are the index. */
  async index(): Promise<void> {}

  async remove(): Promise<void> {}

  async reindex(workspaceId: string, onProgress?: (progress: ReindexProgress) => void): Promise<ReindexProgress> {
    // Nothing to rebuild; report the documents the tables hold so callers see the same shape of answer.
    const total = await withTenant(this.db, { workspaceId }, async (trx) => {
      const counts = await Promise.all(
        ['projects', 'project_categories', 'notes', 'insights', 'highlights', 'tags', 'people'].map(async (table) => {
          const row = (await trx(table)
            .where({ workspace_id: workspaceId })
            .count<Array<{ count: string }>>({ count: '*' })
            .first()) ?? { count: '0' };
          return Number(row.count);
        }),
      );
      return counts.reduce((a, b) => a + b, 0);
    });
    const progress = { done: total, total };
    onProgress?.(progress);
    return progress;
  }

  private async run(trx: Knex.Transaction, request: SearchRequest, mode: Mode): Promise<SearchResults> {
    const { compiled } = request;
    const { bounds } = this;
    const sorts = compiled.sort.map((s) => ({ ...s, kind: sortKind(s, compiled.searches) }));
    // Each type answers its own best rows up to the end of the page (one at least, to carry its
    // count), so the merge below orders a few rows per type, never every match.
    const wanted = Math.max(1, compiled.offset + compiled.limit);
    const named = compiled.searches.flatMap((search, order) => {
      const source = sourceFor(search.type);
      return source ? [{ search, source, order }] : [];
    });
    // Ordered by relevance alone, a type whose matches are common ranks its newest (see
    // SearchBounds); the planner's estimates say which types are likely so. Not with a filter:
    // the estimates know the words, not how many of their matches the filter keeps, and a word
    // common in the table is rare among a tag's highlights, so walking the newest items would
    // cost the whole window for nothing (text + 3 filters: 50 ms of 370 on a loaded machine).
    const newestFirst = sorts.length <= 1 && Number.isFinite(bounds.rankCandidates) && mode === 'words';
    const estimated = new Set(
      named
        .filter(({ search }) => newestFirst && ranksByRelevance(search, sorts) && unfiltered(search))
        .map(({ search }) => search.type),
    );
    // Several types, or estimates to ask for: first, in one statement, which types the workspace
    // has any item of. The others are left out of every statement below (an exact zero).
    const plans =
      named.length > 1 || estimated.size > 0 ? await planTypes(trx, request.workspaceId, named, estimated) : null;
    const searched = plans === null ? named : named.filter(({ search }) => plans.get(search.type)?.present !== false);
    const emptyCounts = () => compiled.order.map((type) => ({ type, count: 0, isEstimate: false }));
    if (searched.length === 0) return { hits: [], totalCount: 0, totalIsEstimate: false, countsByType: emptyCounts() };

    const orderBy = [
      ...sorts.map((s, i) => raw(`s${i} ${s.direction === 'DESC' ? 'desc' : 'asc'} nulls last`)),
      raw('type_order asc, score desc, updated_at desc, id asc'),
    ];
    const candidates = candidatesFor(bounds, wanted);
    const statement = (parts: typeof searched, windows: ReadonlyMap<SearchResultType, RecentWindow> | null) =>
      sql`select * from (${join(
        parts.map(
          ({ search, source, order }) =>
            sql`(${branchSql(source, search, { order, request, mode, sorts, wanted, bounds, recent: windows?.get(search.type)?.rows ?? null })})`,
        ),
        ' union all ',
      )}) r order by ${join(orderBy, ', ')}`;

    // The likely common types are tried among their newest items first: found walking the
    // recency index, the planner free, in a statement of their own.
    const common = new Set<SearchResultType>();
    let newest: HitRow[] = [];
    if (plans !== null && estimated.size > 0) {
      const likely = likelyCommon(searched, plans, mode, candidates, Math.max(bounds.exactCountLimit, candidates));
      const tried = searched.filter(({ search }) => likely.has(search.type));
      // A whole word's frequency is known to the planner, which then reads the window in order by
      // itself; a word being typed's is not (see withOrderedJoins).
      const walk = () => query<HitRow>(trx, statement(tried, likely));
      newest =
        tried.length === 0
          ? []
          : [...likely.values()].some((w) => w.typed)
            ? await withOrderedJoins(trx, walk)
            : await walk();
      for (const row of newest) if (Number(row.type_count) >= candidates) common.add(row.type);
      newest = newest.filter((row) => common.has(row.type));
    }
    const rest = searched.filter(({ search }) => !common.has(search.type));
    // A text query's other matches are read through its index, never by scanning a table in some
    // order hoping to meet them early: a word the statistics cannot see (a prefix, a phrase) would
    // otherwise read a million rows to find twenty.
    // With a filter the planner has selective conditions to start from, and is left to choose.
    const texted = compiled.searches.some((s) => s.text !== null);
    if (texted && compiled.searches.every(unfiltered) && rest.length > 0) await holdToIndexes(trx);
    // Sorted otherwise than by relevance, each row carries its type's count up to the exact limit.
    const others = rest.length === 0 ? [] : await query<HitRow>(trx, statement(rest, null));
    const rows = newest.length === 0 ? others : [...newest, ...others].sort(byRelevance(sorts));

    const counts = new Map<SearchResultType, { count: number; isEstimate: boolean }>();
    // Types to estimate, with what is known of their count; the floors do not depend on the page,
    // so neither does the count.
    const uncounted: Array<{ search: ResultSearch; atLeast: number }> = [];
    for (const { search } of searched) {
      const row = rows.find((r) => r.type === search.type);
      if (!row || row.counted_all)
        counts.set(search.type, { count: row ? Number(row.type_count) : 0, isEstimate: false });
      else if (common.has(search.type)) uncounted.push({ search, atLeast: bounds.rankCandidates });
      else uncounted.push({ search, atLeast: Math.max(Number(row.type_count), bounds.exactCountLimit + 1) });
    }
    const over = uncounted.filter((u) => !counts.has(u.search.type));
    const estimates = await estimateCounts(trx, over, request, mode, bounds, this.sizes);
    for (const [type, estimate] of estimates) counts.set(type, estimate);

    const countsByType = compiled.order.map((type) => ({
      type,
      count: counts.get(type)?.count ?? 0,
      isEstimate: counts.get(type)?.isEstimate ?? false,
    }));
    const page = rows.slice(compiled.offset, compiled.offset + compiled.limit);
    const snippets = await this.snippets(trx, request, mode, page);
    const hits: SearchHit[] = page.map((row) => ({
      type: row.type,
      id: row.id,
      title: row.title ?? '',
      snippet: snippets.get(`${row.type}:${row.id}`) ?? null,
      projectId: row.project_id,
      projectTitle: row.project_title,
      parentId: row.parent_id,
      score: Number(row.score),
      updatedAt: row.updated_at,
    }));
    return {
      hits,
      totalCount: countsByType.reduce((sum, c) => sum + c.count, 0),
      totalIsEstimate: countsByType.some((c) => c.isEstimate),
      countsByType,
    };
  }

  /**
   * Headlines only for the page shown: ts_headline reads the whole text, so it is the costly part.
   * Every type's in one statement.
   */
  private async snippets(
    trx: Knex.Transaction,
    request: SearchRequest,
    mode: Mode,
    rows: readonly HitRow[],
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const parts: Sql[] = [];
    for (const search of request.compiled.searches) {
      const source = sourceFor(search.type);
      const ids = rows.filter((r) => r.type === search.type).map((r) => r.id);
      if (!source || !search.text || ids.length === 0) continue;
      const content = source.content ?? source.title;
      const doc = raw(
        `translate(left(coalesce(${content}, ''), ${HEADLINE_SOURCE_CHARS}), chr(57344) || chr(57345), '')`,
      );
      const title = raw(`translate(coalesce(${source.title}, ''), chr(57344) || chr(57345), '')`);
      const headline =
        mode === 'fuzzy'
          ? sql`left(case when coalesce(${raw(content)}, '') <> '' then ${doc} else ${title} end, 400)`
          : sql`case when ${raw(content)} is null or ts_filter(${raw(source.vector)}, '{a}') @@ tq.q and not ts_filter(${raw(source.vector)}, '{b}') @@ tq.q
                  then ts_headline('fb_search', ${title}, tq.q, ${HEADLINE_OPTIONS})
                  else ts_headline('fb_search', ${doc}, tq.q, ${HEADLINE_OPTIONS}) end`;
      parts.push(sql`(select ${search.type}::text as type, t.id, ${headline} as headline from ${raw(source.from)} cross join (select ${tsquerySql(search.text)} as q) tq
        where t.id = any(${ids}::uuid[]))`);
    }
    if (parts.length === 0) return out;
    for (const row of await query<{ type: string; id: string; headline: string | null }>(
      trx,
      join(parts, ' union all '),
    )) {
      if (row.headline) out.set(`${row.type}:${row.id}`, snippetHtml(row.headline));
    }
    return out;
  }
}

/** Whether a type's search has no filter (its condition is an empty "and"). */
const unfiltered = (search: ResultSearch): boolean =>
  search.where.kind === 'and' && search.where.predicates.length === 0;

/**
 * The merge order of rows from two statements, as SQL orders a search by relevance alone (see
 * `orderBy`): by score when relevance is the given sort, then the result type's place, score,
 * newest, id.
 */
function byRelevance(sorts: readonly SearchSort[]) {
  const sign = sorts[0]?.direction === 'DESC' ? -1 : 1;
  return (a: HitRow, b: HitRow): number =>
    (sorts.length > 0 ? sign * (Number(a.score) - Number(b.score)) : 0) ||
    Number(a.type_order) - Number(b.type_order) ||
    Number(b.score) - Number(a.score) ||
    b.updated_at.getTime() - a.updated_at.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
