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
    const branches = compiled.searches.flatMap((search, order) => {
      const source = sourceFor(search.type);
      return source ? [branchSql(source, search, order, request, mode)] : [];
    });
    if (branches.length === 0) return { hits: [], totalCount: 0, countsByType: compiled.order.map((type) => ({ type, count: 0 })) };

    const sorts = compiled.sort.map((s) => ({ ...s, kind: sortKind(s, compiled.searches) }));
    const union = join(
      branches.map((b) => b(sorts)),
      ' union all ',
    );
    const orderBy = [
      ...sorts.map((s, i) => raw(`s${i} ${s.direction === 'DESC' ? 'desc' : 'asc'} nulls last`)),
      raw('type_order asc, score desc, updated_at desc, id asc'),
    ];
    // The counts ride along with the page as window columns: the sort reads every match anyway, so
    // one pass over the matches answers both instead of running the whole search twice.
    const countColumns = compiled.order.map((type, i) => sql`count(*) filter (where r.type = ${type}) over () as ${raw(`c${i}`)}`);
    const page = sql`select r.*, ${join(countColumns, ', ')} from (${union}) r order by ${join(orderBy, ', ')} limit ${compiled.limit}::int offset ${compiled.offset}::int`;

    const rows = await query<HitRow & Record<string, unknown>>(trx, page);
    let countOf: Map<string, number>;
    if (rows.length > 0) {
      countOf = new Map(compiled.order.map((type, i) => [type, Number(rows[0]![`c${i}`])]));
    } else if (compiled.offset === 0 && compiled.limit > 0) {
      countOf = new Map(); // nothing matched at all
    } else {
      // A page past the end, or a request for counts only (limit 0), carries no row to read them from.
      const counted = sql`select type, count(*)::int as count from (${union}) r group by type`;
      countOf = new Map((await query<{ type: SearchResultType; count: number }>(trx, counted)).map((r) => [r.type, r.count]));
    }
    const snippets = await this.snippets(trx, request, mode, rows);
    const countsByType = compiled.order.map((type) => ({ type, count: countOf.get(type) ?? 0 }));
    const hits: SearchHit[] = rows.map((row) => ({
      type: row.type,
      id: row.id,
      title: row.title ?? '',
      snippet: snippets.get(`${row.type}:${row.id}`) ?? null,
      projectId: row.project_id,
      projectTitle: row.project_title,
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

/** One result type's part of the search, as a function of the sort columns the union carries. */
function branchSql(source: Source, search: ResultSearch, order: number, request: SearchRequest, mode: Mode): (sorts: SortSpec[]) => Sql {
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
  return (sorts) => {
    const columns = sorts.map((s, i) => sql`${sortColumn(source, s, score)} as ${raw(`s${i}`)}`);
    const select = [
      sql`${search.type}::text as type`,
      raw(`${order} as type_order`),
      raw('t.id'),
      raw(`${source.title} as title`),
      raw(`${source.projectId} as project_id`),
      raw('p.title as project_title'),
      raw('t.updated_at'),
      sql`${score} as score`,
      ...columns,
    ];
    return sql`select ${join(select, ', ')} from ${from} where ${where}`;
  };
}
