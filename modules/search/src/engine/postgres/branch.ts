import {
  RELEVANCE,
  attributeFor,
  isSystemField,
  type ResultSearch,
  type SearchResultType,
  type SearchSort,
} from '../../filters/index.ts';
import type { SearchAccess, SearchRequest } from '../engine.ts';
import type { SearchBounds } from './bounds.ts';
import { predicateSql, resolveAttribute } from './predicate-sql.ts';
import { joinsOf, sourceFor, tableOf, type AttributeKind, type Source } from './sources.ts';
import { join, raw, sql, type Sql } from './sql.ts';
import { fuzzyMatchSql, fuzzyWords, tsquerySql, vectorSql } from './text-query.ts';

export type Mode = 'words' | 'fuzzy';

export type SortSpec = SearchSort & { kind: AttributeKind | 'json' | null };

const SQL_TYPES: Record<AttributeKind | 'json', string> = {
  text: 'text',
  id: 'text',
  ids: 'text[]',
  number: 'numeric',
  boolean: 'boolean',
  time: 'timestamptz',
  json: 'jsonb',
};

/** The SQL type a sort column has across every branch: the kind of the first type that has it. */
export function sortKind(sort: SearchSort, searches: readonly ResultSearch[]): AttributeKind | 'json' | null {
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

/** What one result type matches: its tables and condition, and the score of a match. */
export interface Matching {
  from: Sql;
  where: Sql;
  score: Sql;
}

/** Over `table` in place of the type's own table when given: a sample of it, or its newest items. */
export function matchingSql(
  source: Source,
  search: ResultSearch,
  request: SearchRequest,
  mode: Mode,
  table?: Sql,
): Matching {
  let from = table === undefined ? raw(source.from) : sql`${table}${raw(joinsOf(source))}`;
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
    [
      sql`t.workspace_id = ${request.workspaceId}::uuid`,
      raw(source.live),
      accessSql(source, request.access),
      predicateSql(search.where, source),
      match,
    ],
    ' and ',
  );
  return { from, where, score };
}

/**
 * The type's own table as `t`, with what its score needs (the query as `tq`), and the score:
 * for scoring rows already chosen, joined by id.
 */
function scoringSql(source: Source, search: ResultSearch, mode: Mode): { from: Sql; score: Sql } {
  const table = raw(`${tableOf(source)} t`);
  if (!search.text) return { from: table, score: raw('0::float8') };
  if (mode === 'words') {
    return {
      from: sql`${table} cross join (select ${tsquerySql(search.text)} as q) tq`,
      score: sql`ts_rank_cd(${vectorSql(search.text, source)}, tq.q)::float8`,
    };
  }
  const fuzzy = fuzzyMatchSql(fuzzyWords(search.text), search.text, source);
  return { from: table, score: sql`(${fuzzy.score})::float8` };
}

/** Whether the type's order starts with how well items match, which only ranking can tell. */
export const ranksByRelevance = (search: ResultSearch, sorts: readonly SortSpec[]): boolean =>
  search.text !== null && (sorts.length === 0 || sorts[0]!.field === RELEVANCE);

/** How many candidates a type ranks: the bound, or more when the page reaches further. */
export const candidatesFor = (bounds: SearchBounds, wanted: number): number => Math.max(bounds.rankCandidates, wanted);

/** The type's `window` newest items as `t`: its common matches' candidates are among them. */
function newestSql(source: Source, request: SearchRequest, window: number): Sql {
  return sql`(select * from ${raw(tableOf(source))} w where w.workspace_id = ${request.workspaceId}::uuid
    order by w.updated_at desc, w.id asc limit ${window}::int) t`;
}

export interface BranchOptions {
  order: number;
  request: SearchRequest;
  mode: Mode;
  sorts: SortSpec[];
  /** Rows the page needs from this type: offset plus limit, one at least to carry the count. */
  wanted: number;
  bounds: SearchBounds;
  /**
   * Look for the type's candidates among its `recent` newest items only (walking the recency
   * index): if it finds them all there (`type_count` is the number of candidates), its matches are
   * common and these rows are its answer; otherwise it is asked again without. Null: not so.
   */
  recent: number | null;
}

/**
 * One result type's part of the search: its best `wanted` matches in the search's order.
 *
 * Ordered by relevance, a type ranks a bounded set of candidates (see SearchBounds): its common
 * matches' newest, given in `recent`; or else what the text index yields, read up to
 * `exactCountLimit` + 1 (the caller has the planner use bitmap scans, so reading stops there), of
 * which the most recent are ranked when that is every match, the first in table order otherwise.
 * Rows carry the type's count (`type_count`, null when not counted) and whether it is every
 * match (`counted_all`). In any other order the matches are sorted whole (an index or a top-N
 * sort serves it), and counted up to `exactCountLimit` + 1 beside them.
 */
export function branchSql(source: Source, search: ResultSearch, opts: BranchOptions): Sql {
  const { from, where, score } = matchingSql(source, search, opts.request, opts.mode);
  const { sorts, wanted, bounds } = opts;
  const keys = sorts.map((s, i) => sql`${sortColumn(source, s, score)} as ${raw(`s${i}`)}`);
  const innerOrder = [
    ...sorts.map((s, i) => raw(`s${i} ${s.direction === 'DESC' ? 'desc' : 'asc'} nulls last`)),
    raw('score desc, updated_at desc, id asc'),
  ];
  const columns = join([raw('t.id'), raw('t.updated_at'), sql`${score} as score`, ...keys], ', ');
  // Every branch answers the same columns, for the union of them all.
  const kept = (alias: string): Sql =>
    raw(['id', 'updated_at', 'score', ...sorts.map((_, i) => `s${i}`)].map((c) => `${alias}.${c}`).join(', '));

  let inner: Sql;
  if (ranksByRelevance(search, sorts) && Number.isFinite(bounds.rankCandidates)) {
    const candidates = candidatesFor(bounds, wanted);
    if (opts.recent !== null) {
      const newest = matchingSql(source, search, opts.request, opts.mode, newestSql(source, opts.request, opts.recent));
      const pool = sql`select ${columns} from ${newest.from} where ${newest.where} order by t.updated_at desc, t.id asc limit ${candidates}::int`;
      inner = sql`select ${kept('c')}, c.pooled as type_count, false as counted_all
        from (select pool.*, count(*) over () as pooled from (${pool}) pool) c
        order by ${join(innerOrder, ', ')} limit ${wanted}::int`;
    } else {
      const read = Number.isFinite(bounds.exactCountLimit) ? Math.max(bounds.exactCountLimit, candidates) : null;
      // The probe reads what choosing candidates needs (id, recency, other sort keys), not the
      // score: ranking reads each row's whole vector, so only the candidates are scored, after
      // they are chosen (500, not the 5,001 read to count).
      const probeKeys = sorts.flatMap((s, i) =>
        s.field === RELEVANCE ? [] : [sql`${sortColumn(source, s, score)} as ${raw(`s${i}`)}`],
      );
      const probeColumns = join([raw('t.id'), raw('t.updated_at'), ...probeKeys], ', ');
      const probe = sql`select ${probeColumns} from ${from} where ${where}${read === null ? raw('') : sql` limit ${read + 1}::int`}`;
      const all = read === null ? raw('true') : sql`c.probed <= ${read}::int`;
      const scored = scoringSql(source, search, opts.mode);
      const outKeys = sorts.map((s, i) =>
        s.field === RELEVANCE ? sql`${scored.score} as ${raw(`s${i}`)}` : raw(`c.s${i}`),
      );
      // Table order is numbered before anything reorders the rows.
      inner = sql`select ${join([raw('c.id'), raw('c.updated_at'), sql`${scored.score} as score`, ...outKeys], ', ')}, c.probed as type_count, ${all} as counted_all
        from (select o.*, count(*) over () as probed, row_number() over (order by o.updated_at desc, o.id asc) as recent
              from (select probe.*, row_number() over () as shelf from (${probe}) probe) o) c
        join ${scored.from} on t.id = c.id
        where case when ${all} then c.recent else c.shelf end <= ${candidates}::int
        order by ${join(innerOrder, ', ')} limit ${wanted}::int`;
    }
  } else {
    // `offset 0` keeps the matches' own query apart, so sort keys are computed as each match is read.
    const matches = sql`select ${columns} from ${from} where ${where} offset 0`;
    // The type's count comes in the same statement (one round trip fewer): up to the exact limit,
    // past which the caller estimates it.
    const limit = Number.isFinite(bounds.exactCountLimit) ? bounds.exactCountLimit : null;
    // A scalar subquery, so the planner runs it once on its own and plans the page apart from it.
    const counted =
      limit === null
        ? sql`(select count(*) from ${from} where ${where})`
        : sql`(select count(*) from (select 1 from ${from} where ${where} limit ${limit + 1}::int) c)`;
    const page =
      search.text === null && sorts.length === 0
        ? // Newest first, nothing to compute per match (no text, so no score): the planner may walk
          // the recency index and stop at the page's end, instead of reading every match to sort them.
          sql`select ${columns}, ${counted} as type_count from ${from} where ${where} order by t.updated_at desc, t.id asc limit ${wanted}::int`
        : sql`select ${kept('x')}, ${counted} as type_count from (${matches}) x order by ${join(innerOrder, ', ')} limit ${wanted}::int`;
    inner = sql`select ${kept('pg')}, pg.type_count, ${limit === null ? raw('true') : sql`pg.type_count <= ${limit}::int`} as counted_all from (${page}) pg`;
  }
  const outer = [
    sql`${search.type}::text as type`,
    raw(`${opts.order} as type_order`),
    raw('m.*'),
    raw(`${source.title} as title`),
    raw(`${source.projectId} as project_id`),
    raw('p.title as project_title'),
    raw(`${source.parentId} as parent_id`),
  ];
  return sql`select ${join(outer, ', ')} from ${raw(source.from)} join (${inner}) m on m.id = t.id`;
}
