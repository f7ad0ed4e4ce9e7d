/**
 * Universal search on the research repository's generated workspace, PostgreSQL engine: p50 and
 * p95 per query shape through the GraphQL API, each beside the same search written by hand in SQL
 * and run in the same process and run (a floor: one statement per result type, no API around it).
 */
import type { Knex } from 'knex';
import { percentile, round } from './support.ts';

export interface SearchShapeResult {
  shape: string;
  apiP50Ms: number;
  apiP95Ms: number;
  sqlP50Ms: number;
  sqlP95Ms: number;
  /** API p95 over SQL p95. */
  ratio: number;
  hits: number;
}

const RUNS = 30;
const WARM_UP = 3;
/** A slow shape stops sampling after this long (with at least MIN_RUNS samples), so the bench ends. */
const BUDGET_MS = 30_000;
const MIN_RUNS = 5;
const LIMIT = 20;
const RARE = 'zeppelin';

interface Target {
  url: string;
  token: string;
  workspaceId: string;
}

async function search(t: Target, input: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${t.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.token}`, 'x-fieldbook-workspace': t.workspaceId },
    body: JSON.stringify({ query: 'query ($input: SearchInput!) { search(input: $input) { totalCount hits { id type title snippet } countsByType { type count } } }', variables: { input } }),
  });
  const body = (await res.json()) as { data?: { search: { totalCount: number } }; errors?: Array<{ message: string }> };
  if (!body.data) throw new Error(`search failed: ${body.errors?.[0]?.message ?? res.status}`);
  return body.data.search.totalCount;
}

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    const t = performance.now();
    await fn();
    if (i >= WARM_UP) samples.push(performance.now() - t);
    if (samples.length >= MIN_RUNS && performance.now() - started > BUDGET_MS) break;
  }
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

/** Hand-written SQL: for each table, the count and the best `LIMIT` rows of a tsquery, with a snippet. */
const WITHOUT_TRASH = new Set(['tags']);

function textSql(owner: Knex, workspaceId: string, tsquery: string, tables: readonly string[], extraWhere = '', extraBindings: readonly string[] = []) {
  return () =>
    Promise.all(
      tables.map((table) =>
        owner.raw(
          `with q as (select ${tsquery} as q),
                m as (select t.id, t.search_vector from ${table} t, q
                      where t.workspace_id = ? ${WITHOUT_TRASH.has(table) ? '' : 'and t.deleted_at is null'} and t.search_vector @@ q.q ${extraWhere})
           select (select count(*) from m) as total, top.*
           from (select m.id, ts_rank_cd(m.search_vector, q.q) as score from m, q order by score desc limit ${LIMIT}) top`,
          [workspaceId, ...extraBindings],
        ),
      ),
    );
}

export async function benchSearch(opts: { owner: Knex; url: string; token: string; workspaceId: string; log(line: string): void }): Promise<{ shapes: SearchShapeResult[]; reindexItemsPerSecond: number | null }> {
  const { owner, workspaceId, log } = opts;
  const target: Target = { url: opts.url, token: opts.token, workspaceId };

  // A rare word in twenty notes, and one tag on a tenth of the highlights.
  await owner.raw(
    `update notes set content_text = content_text || ' ${RARE}' where id in (select id from notes where workspace_id = ? order by rank limit 20)`,
    [workspaceId],
  );
  const [board] = await owner('tag_boards').insert({ workspace_id: workspaceId, title: 'Themes' }).returning('id');
  const [tag] = await owner('tags').insert({ workspace_id: workspaceId, board_id: (board as { id: string }).id, title: 'Pricing', color: '#e8590c' }).returning('id');
  const tagId = (tag as { id: string }).id;
  await owner.raw(
    `insert into highlight_tags (workspace_id, highlight_id, tag_id)
     select workspace_id, id, ? from highlights where workspace_id = ? and start_offset = 0 and (hashtext(id::text) % 10) = 0`,
    [tagId, workspaceId],
  );
  const [project] = await owner('projects').where({ workspace_id: workspaceId }).orderBy('rank').limit(1).select('id');
  const projectId = (project as { id: string }).id;
  await owner.raw('analyze notes, highlights, highlight_tags');

  const tagsOneOf = { id: 'tags', field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [tagId] } } };
  const createdAfter = { id: 'created', field: 'Created', operator: 'after', values: { Created: { relativeDate: '1w' } } };
  const inProject = { id: 'project', field: 'Project', operator: 'oneOf', values: { Project: { projectMultiselect: [projectId] } } };
  const textTables = ['notes', 'highlights', 'insights', 'projects', 'tags', 'people'] as const;
  const fts = (q: string) => owner.raw('?', [q]).toString(); // a bound, quoted literal for the SQL text

  const shapes: Array<{ shape: string; input: Record<string, unknown>; sql: () => Promise<unknown> }> = [
    { shape: 'one common word', input: { query: 'team', limit: LIMIT }, sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts('team')})`, textTables) },
    { shape: 'one rare word', input: { query: RARE, limit: LIMIT }, sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts(RARE)})`, textTables) },
    {
      shape: 'a quoted phrase',
      input: { query: '"scattered documents"', limit: LIMIT },
      sql: textSql(owner, workspaceId, `phraseto_tsquery('fb_search', ${fts('scattered documents')})`, textTables),
    },
    { shape: 'a prefix as you type', input: { query: 'scatt', limit: LIMIT }, sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts('scatt:*')})`, textTables) },
    {
      shape: 'filters only (tags one of + created after)',
      input: { resultTypes: ['HIGHLIGHT'], filter: { combinator: 'and', forms: [tagsOneOf, createdAfter] }, limit: LIMIT },
      sql: () =>
        owner.raw(
          `with m as (select h.id, h.created_at from highlights h
                      where h.workspace_id = ? and h.deleted_at is null and h.created_at > now() - interval '1 week'
                        and exists (select 1 from highlight_tags ht where ht.highlight_id = h.id and ht.tag_id = ?))
           select (select count(*) from m) as total, top.* from (select id from m order by created_at desc limit ${LIMIT}) top`,
          [workspaceId, tagId],
        ),
    },
    {
      shape: 'text plus three filters',
      input: { query: 'team', resultTypes: ['HIGHLIGHT'], filter: { combinator: 'and', forms: [tagsOneOf, createdAfter, inProject] }, limit: LIMIT },
      sql: textSql(
        owner,
        workspaceId,
        `to_tsquery('fb_search', ${fts('team')})`,
        ['highlights'],
        `and t.project_id = ? and t.created_at > now() - interval '1 week' and exists (select 1 from highlight_tags ht where ht.highlight_id = t.id and ht.tag_id = ?)`,
        [projectId, tagId],
      ),
    },
    { shape: 'Everything tab with counts', input: { query: 'research', limit: LIMIT }, sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts('research')})`, textTables) },
  ];

  const out: SearchShapeResult[] = [];
  for (const s of shapes) {
    log(`search: ${s.shape} ...`);
    const hits = await search(target, s.input); // also the first warm-up
    const api = await time(() => search(target, s.input));
    const sql = await time(s.sql);
    out.push({ shape: s.shape, apiP50Ms: api.p50, apiP95Ms: api.p95, sqlP50Ms: sql.p50, sqlP95Ms: sql.p95, ratio: round(api.p95 / Math.max(sql.p95, 0.1), 2), hits });
  }
  return { shapes: out, reindexItemsPerSecond: null };
}
