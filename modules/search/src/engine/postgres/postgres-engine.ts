import type { Knex } from 'knex';
import { withTenant } from '@fieldbook/core';
import { RELEVANCE, attributeFor, isSystemField, type ResultSearch, type SearchResultType, type SearchSort } from '../../filters/index.ts';
import type { ReindexProgress, SearchAccess, SearchEngine, SearchHit, SearchRequest, SearchResults } from '../engine.ts';
import { predicateSql, resolveAttribute } from './predicate-sql.ts';
import { MARK_END, MARK_START, snippetHtml } from './snippet.ts';
import { sourceFor, type AttributeKind, type Source } from './sources.ts';
import { join, query, raw, sql, type Sql } from './sql.ts';
import { fuzzyMatchSql, fuzzyWords, tsquerySql, vectorSql } from './text-query.ts';

type Mode = 'words' | 'fuzzy';

interface HitRow {
  type: SearchResultType;
  id: string;
  title: string | null;
  project_id: string | null;
  project_title: string | null;
  parent_id: string | null;
  updated_at: Date;
  score: number | string;
}

const SQL_TYPES: Record<AttributeKind | 'json', string> = {
  text: 'text',
  id: 'text',
  ids: 'text[]',
  number: 'numeric',
  boolean: 'boolean',
  time: 'timestamptz',
  json: 'jsonb',
};

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

  constructor(private readonly db: Knex) {}

  async search(request: SearchRequest): Promise<SearchResults> {
    return withTenant(this.db, { workspaceId: request.workspaceId, userId: request.userId }, async (trx) => {
      // For this transaction: a filter's link-table lookups (a tag's highlights, then each by its
      // key) are priced as the cached, solid-state reads they are, rather than as disk seeks that
      // make scanning every highlight look cheaper; and counting a common word's matches beside
      // the best few keeps them in memory.
      await trx.raw(`select set_config('random_page_cost', '1.1', true), set_config('work_mem', '32MB', true)`);
      const first = await this.run(trx, request, 'words');
      const typed = request.compiled.searches[0]?.text ?? null;
      // Nothing matched word for word: try close spellings before answering with nothing.
      if (first.totalCount > 0 || typed === null || fuzzyWords(typed).length === 0) return first;
      // pg_trgm's default (0.6) misses one wrong letter in a seven-letter word; for this transaction only.
      await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', '${FUZZY_THRESHOLD}', true)`);
      return this.run(trx, request, 'fuzzy');
    });
  }

  /** The tables are the index. */
  async index(): Promise<void> {}

  async remove(): Promise<void> {}

  async reindex(workspaceId: string, onProgress?: (progress: ReindexProgress) => void): Promise<ReindexProgress> {
    // Nothing to rebuild; report the documents the tables hold so callers see the same shape of answer.
    const total = await withTenant(this.db, { workspaceId }, async (trx) => {
      const counts = await Promise.all(
        ['projects', 'project_categories', 'notes', 'insights', 'highlights', 'tags', 'people'].map(async (table) => {
          const row = (await trx(table).where({ workspace_id: workspaceId }).count<Array<{ count: string }>>({ count: '*' }).first()) ?? { count: '0' };
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
    const sorts = compiled.sort.map((s) => ({ ...s, kind: sortKind(s, compiled.searches) }));
    // Each type answers its own best rows up to the end of the page (one at least, to carry its
    // count), so the merge below orders a few rows per type, never every match.
    const wanted = Math.max(1, compiled.offset + compiled.limit);
    const branches = compiled.searches.flatMap((search, order) => {
      const source = sourceFor(search.type);
      return source ? [branchSql(source, search, order, request, mode, sorts, wanted)] : [];
    });
    if (branches.length === 0) return { hits: [], totalCount: 0, countsByType: compiled.order.map((type) => ({ type, count: 0 })) };

    const orderBy = [
      ...sorts.map((s, i) => raw(`s${i} ${s.direction === 'DESC' ? 'desc' : 'asc'} nulls last`)),
      raw('type_order asc, score desc, updated_at desc, id asc'),
    ];
    const merged = sql`select * from (${join(
      branches.map((b) => sql`(${b})`),
      ' union all ',
    )}) r order by ${join(orderBy, ', ')}`;
    const rows = await query<HitRow & { type_count: number }>(trx, merged);
    const countOf = new Map<string, number>();
    for (const row of rows) if (!countOf.has(row.type)) countOf.set(row.type, Number(row.type_count));
    const page = rows.slice(compiled.offset, compiled.offset + compiled.limit);
    const snippets = await this.snippets(trx, request, mode, page);
    const countsByType = compiled.order.map((type) => ({ type, count: countOf.get(type) ?? 0 }));
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
    return { hits, totalCount: countsByType.reduce((sum, c) => sum + c.count, 0), countsByType };
  }

  /** Headlines only for the page shown: ts_headline reads the whole text, so it is the costly part. */
  private async snippets(trx: Knex.Transaction, request: SearchRequest, mode: Mode, rows: readonly HitRow[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const search of request.compiled.searches) {
      const source = sourceFor(search.type);
      const ids = rows.filter((r) => r.type === search.type).map((r) => r.id);
      if (!source || !search.text || ids.length === 0) continue;
      const content = source.content ?? source.title;
      const doc = raw(`translate(left(coalesce(${content}, ''), ${HEADLINE_SOURCE_CHARS}), chr(57344) || chr(57345), '')`);
      const title = raw(`translate(coalesce(${source.title}, ''), chr(57344) || chr(57345), '')`);
      const headline =
        mode === 'fuzzy'
          ? sql`left(case when coalesce(${raw(content)}, '') <> '' then ${doc} else ${title} end, 400)`
          : sql`case when ${raw(content)} is null or ts_filter(${raw(source.vector)}, '{a}') @@ tq.q and not ts_filter(${raw(source.vector)}, '{b}') @@ tq.q
                  then ts_headline('fb_search', ${title}, tq.q, ${HEADLINE_OPTIONS})
                  else ts_headline('fb_search', ${doc}, tq.q, ${HEADLINE_OPTIONS}) end`;
      const statement = sql`select t.id, ${headline} as headline from ${raw(source.from)} cross join (select ${tsquerySql(search.text)} as q) tq
        where t.id = any(${ids}::uuid[])`;
      for (const row of await query<{ id: string; headline: string | null }>(trx, statement)) if (row.headline) out.set(`${search.type}:${row.id}`, snippetHtml(row.headline));
    }
    return out;
  }
}

type SortSpec = SearchSort & { kind: AttributeKind | 'json' | null };

/** The SQL type a sort column has across every branch: the kind of the first type that has it. */
function sortKind(sort: SearchSort, searches: readonly ResultSearch[]): AttributeKind | 'json' | null {
  if (sort.field === RELEVANCE) return null;
  for (const search of searches) {
    const source = sourceFor(search.type);
    const name = source && sortAttribute(search.type, sort.field);
    if (!source || !name) continue;
    const resolved = resolveAttribute(source, name);
    if (resolved.kind !== 'none') return resolved.kind;
  }
  return null;
}

function sortAttribute(type: SearchResultType, field: string): string | undefined {
  if (isSystemField(field)) return attributeFor(type, field)?.name;
  return field;
}

function sortColumn(source: Source, sort: SortSpec, score: Sql): Sql {
  if (sort.field === RELEVANCE) return score;
  if (sort.kind === null || sort.kind === 'ids') return raw('null::int');
  const name = sortAttribute(source.type, sort.field);
  const resolved = name === undefined ? null : resolveAttribute(source, name);
  const type = SQL_TYPES[sort.kind];
  if (!resolved || resolved.kind !== sort.kind) return raw(`null::${type}`);
  // Titles and names sort as people read them: ignoring case and accents.
  return sort.kind === 'text' ? sql`fb_search_text(${resolved.sql})` : sql`(${resolved.sql})::${raw(type)}`;
}

function accessSql(source: Source, access: SearchAccess): Sql {
  if (access.allProjects) return raw('true');
  const readable = sql`${raw(source.projectId)} = any(${[...access.projectIds]}::uuid[])`;
  return source.outsideProjects ? sql`(${raw(source.projectId)} is null or ${readable})` : readable;
}

/**
 * One result type's part of the search: its best `wanted` matches in the search's order, with the
 * count of all its matches. The inner query reads only what ordering needs (id, score, sort
 * keys) and counts in the same pass, ranking only the rows that matched; titles and project
 * titles are read for the rows kept.
 */
function branchSql(source: Source, search: ResultSearch, order: number, request: SearchRequest, mode: Mode, sorts: SortSpec[], wanted: number): Sql {
  let from = raw(source.from);
  let match = raw('true');
  let score: Sql = raw('0::float8');
  if (search.text) {
    if (mode === 'words') {
      from = sql`${from} cross join (select ${tsquerySql(search.text)} as q) tq`;
      const vector = vectorSql(search.text, source);
      match = sql`${vector} @@ tq.q`;
      score = sql`ts_rank_cd(${vector}, tq.q)::float8`;
    } else {
      const fuzzy = fuzzyMatchSql(fuzzyWords(search.text), search.text, source);
      match = fuzzy.match;
      score = sql`(${fuzzy.score})::float8`;
    }
  }
  const where = join(
    [sql`t.workspace_id = ${request.workspaceId}::uuid`, raw(source.live), accessSql(source, request.access), predicateSql(search.where, source), match],
    ' and ',
  );
  const keys = sorts.map((s, i) => sql`${sortColumn(source, s, score)} as ${raw(`s${i}`)}`);
  const innerOrder = [...sorts.map((s, i) => raw(`s${i} ${s.direction === 'DESC' ? 'desc' : 'asc'} nulls last`)), raw('score desc, updated_at desc, id asc')];
  // `offset 0` keeps the matches' own query apart: the score is computed as each match is read,
  // so counting beside the best few holds narrow rows, not every match's whole stored vector.
  const matches = sql`select ${join([raw('t.id'), raw('t.updated_at'), sql`${score} as score`, ...keys], ', ')} from ${from} where ${where} offset 0`;
  const inner = sql`select x.*, count(*) over () as type_count from (${matches}) x order by ${join(innerOrder, ', ')} limit ${wanted}::int`;
  const outer = [
    sql`${search.type}::text as type`,
    raw(`${order} as type_order`),
    raw('m.*'),
    raw(`${source.title} as title`),
    raw(`${source.projectId} as project_id`),
    raw('p.title as project_title'),
    raw(`${source.parentId} as parent_id`),
  ];
  return sql`select ${join(outer, ', ')} from ${raw(source.from)} join (${inner}) m on m.id = t.id`;
}
