/**
 * Universal search on the research repository's generated workspace, PostgreSQL engine: p50 and
 * p95 per query shape through the GraphQL API, each beside the same search written by hand in SQL
 * and run in the same process and run (a floor: one statement per result type, no API around it).
 * Then the throughput of a full Typesense reindex of that workspace, against the local server
 * that speaks Typesense's HTTP API (tests/support/typesense-fake.ts), run in this same process:
 * it measures reading and converting the documents and the client's imports, not a real server.
 *
 * The engine ranks a bounded set of candidates and estimates large counts; beside each shape the
 * bench runs the same search once through an engine with no bounds (every match ranked and
 * counted) and says whether the first page is the same and how far the count is from the exact one.
 * For the rare word and the filtered shapes, whose matches fit the bound, the page must be the same.
 *
 * `npm run bench` runs it after the research benchmark. `tsx bench/search.ts` runs it alone on a
 * database kept between runs (BENCH_SEARCH_DIR, default /tmp/fieldbook-search-bench), generating
 * the research workspace on the first run only (BENCH_RESEARCH_SCALE, default 1), and writes the
 * shapes' figures to BENCH_SEARCH_JSON when set.
 */
import type { Knex } from 'knex';
import { PostgresSearchEngine } from '../modules/search/src/engine/postgres/postgres-engine.ts';
import { compileSearch, parseSearchParams } from '../modules/search/src/filters/index.ts';
import { typesenseClient } from '../modules/search/src/engine/typesense/client.ts';
import { TypesenseEngine } from '../modules/search/src/engine/typesense/engine.ts';
import { startTypesenseFake } from '../tests/support/typesense-fake.ts';
import { graphql, percentile, round, withFieldbook } from './support.ts';

export interface SearchShapeResult {
  shape: string;
  apiP50Ms: number;
  apiP95Ms: number;
  sqlP50Ms: number;
  sqlP95Ms: number;
  /** API p95 over SQL p95. */
  ratio: number;
  /** The total the API answered, and whether it is an estimate. */
  hits: number;
  hitsIsEstimate: boolean;
  /** The total counted exactly by the unbounded engine. */
  exactHits: number;
  /** Whether the API's first page is the unbounded engine's (exact ranking), in the same order. */
  firstPageAsExact: boolean;
  /** Whether the shape must give the exact first page (its matches fit the candidate bound). */
  mustMatchExact: boolean;
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

interface Answer {
  totalCount: number;
  totalIsEstimate: boolean;
  hits: Array<{ id: string; type: string }>;
}

async function search(t: Target, input: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${t.url}/api/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${t.token}`,
      'x-fieldbook-workspace': t.workspaceId,
    },
    body: JSON.stringify({
      query:
        'query ($input: SearchInput!) { search(input: $input) { totalCount totalIsEstimate hits { id type title snippet } countsByType { type count isEstimate } } }',
      variables: { input },
    }),
  });
  const body = (await res.json()) as { data?: { search: Answer }; errors?: Array<{ message: string }> };
  if (!body.data) throw new Error(`search failed: ${body.errors?.[0]?.message ?? res.status}`);
  return body.data.search;
}

/** The same search with no bounds: every match ranked, every count exact (what the engine did before). */
async function exactSearch(
  app: Knex,
  workspaceId: string,
  userId: string,
  input: Record<string, unknown>,
): Promise<Answer> {
  const engine = new PostgresSearchEngine(app, {
    rankCandidates: Infinity,
    exactCountLimit: Infinity,
    estimateSampleRows: 0,
  });
  const compiled = compileSearch(parseSearchParams(input), { now: new Date(), userId });
  const res = await engine.search({ workspaceId, userId, access: { allProjects: true, projectIds: [] }, compiled });
  return {
    totalCount: res.totalCount,
    totalIsEstimate: res.totalIsEstimate,
    hits: res.hits.map((h) => ({ id: h.id, type: h.type })),
  };
}

const samePage = (a: Answer, b: Answer): boolean =>
  a.hits.map((h) => `${h.type}:${h.id}`).join() === b.hits.map((h) => `${h.type}:${h.id}`).join();

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

function textSql(
  owner: Knex,
  workspaceId: string,
  tsquery: string,
  tables: readonly string[],
  extraWhere = '',
  extraBindings: readonly string[] = [],
) {
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

export interface ReindexResult {
  items: number;
  seconds: number;
  itemsPerSecond: number;
  /** What the documents were written to. */
  server: string;
}

/**
 * The bench's additions to the workspace: a rare word in twenty notes, and one tag on a tenth of
 * the highlights. Idempotent, so a kept database can be searched again.
 */
async function prepare(owner: Knex, workspaceId: string): Promise<string> {
  await owner.raw(
    `update notes set content_text = content_text || ' ${RARE}'
      where id in (select id from notes where workspace_id = ? order by rank limit 20) and content_text not like '%${RARE}'`,
    [workspaceId],
  );
  const existing = (await owner('tags').where({ workspace_id: workspaceId, title: 'Pricing' }).first('id')) as
    | { id: string }
    | undefined;
  if (existing) return existing.id;
  const [board] = await owner('tag_boards').insert({ workspace_id: workspaceId, title: 'Themes' }).returning('id');
  const [tag] = await owner('tags')
    .insert({ workspace_id: workspaceId, board_id: (board as { id: string }).id, title: 'Pricing', color: '#e8590c' })
    .returning('id');
  const tagId = (tag as { id: string }).id;
  await owner.raw(
    `insert into highlight_tags (workspace_id, highlight_id, tag_id)
     select workspace_id, id, ? from highlights where workspace_id = ? and start_offset = 0 and (hashtext(id::text) % 10) = 0`,
    [tagId, workspaceId],
  );
  return tagId;
}

/** A full reindex of the workspace into the local Typesense-speaking server, timed. */
export async function benchReindex(opts: {
  app: Knex;
  workspaceId: string;
  log(line: string): void;
}): Promise<ReindexResult> {
  const fake = await startTypesenseFake('bench-key', { keepRequests: false });
  try {
    const engine = new TypesenseEngine({
      client: typesenseClient({ url: fake.url, apiKey: 'bench-key' }),
      db: opts.app,
      collectionPrefix: 'bench_',
    });
    await engine.ensureCollections();
    opts.log('search: full reindex into the local Typesense-speaking server ...');
    const started = performance.now();
    let reported = 0;
    const result = await engine.reindex(opts.workspaceId, (p) => {
      if (p.done - reported >= 100_000) {
        reported = p.done;
        opts.log(`search: reindexed ${p.done} of ${p.total}`);
      }
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      items: result.done,
      seconds: round(seconds),
      itemsPerSecond: Math.round(result.done / seconds),
      server:
        'local Typesense-speaking fake server (tests/support/typesense-fake.ts) in the bench process, not a real Typesense',
    };
  } finally {
    await fake.close();
  }
}

export async function benchSearch(opts: {
  owner: Knex;
  app: Knex;
  url: string;
  token: string;
  workspaceId: string;
  log(line: string): void;
}): Promise<{ shapes: SearchShapeResult[]; reindex: ReindexResult | null }> {
  const { owner, workspaceId, log } = opts;
  const target: Target = { url: opts.url, token: opts.token, workspaceId };
  const tagId = await prepare(owner, workspaceId);
  const { me } = await graphql<{ me: { id: string } }>(opts.url, '{ me { id } }', {}, opts.token);
  const userId = me.id;
  const [project] = await owner('projects').where({ workspace_id: workspaceId }).orderBy('rank').limit(1).select('id');
  const projectId = (project as { id: string }).id;
  await owner.raw('analyze notes, highlights, highlight_tags');

  const tagsOneOf = { id: 'tags', field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [tagId] } } };
  const createdAfter = {
    id: 'created',
    field: 'Created',
    operator: 'after',
    values: { Created: { relativeDate: '1w' } },
  };
  const inProject = {
    id: 'project',
    field: 'Project',
    operator: 'oneOf',
    values: { Project: { projectMultiselect: [projectId] } },
  };
  const textTables = ['notes', 'highlights', 'insights', 'projects', 'tags', 'people'] as const;
  const fts = (q: string) => owner.raw('?', [q]).toString(); // a bound, quoted literal for the SQL text

  const shapes: Array<{
    shape: string;
    input: Record<string, unknown>;
    sql: () => Promise<unknown>;
    mustMatchExact?: boolean;
  }> = [
    {
      shape: 'one common word',
      input: { query: 'team', limit: LIMIT },
      sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts('team')})`, textTables),
    },
    {
      shape: 'one rare word',
      input: { query: RARE, limit: LIMIT },
      sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts(RARE)})`, textTables),
      mustMatchExact: true,
    },
    {
      shape: 'a quoted phrase',
      input: { query: '"scattered documents"', limit: LIMIT },
      sql: textSql(owner, workspaceId, `phraseto_tsquery('fb_search', ${fts('scattered documents')})`, textTables),
    },
    {
      shape: 'a prefix as you type',
      input: { query: 'scatt', limit: LIMIT },
      sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts('scatt:*')})`, textTables),
    },
    {
      shape: 'filters only (tags one of + created after)',
      input: {
        resultTypes: ['HIGHLIGHT'],
        filter: { combinator: 'and', forms: [tagsOneOf, createdAfter] },
        limit: LIMIT,
      },
      mustMatchExact: true,
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
      input: {
        query: 'team',
        resultTypes: ['HIGHLIGHT'],
        filter: { combinator: 'and', forms: [tagsOneOf, createdAfter, inProject] },
        limit: LIMIT,
      },
      mustMatchExact: true,
      sql: textSql(
        owner,
        workspaceId,
        `to_tsquery('fb_search', ${fts('team')})`,
        ['highlights'],
        `and t.project_id = ? and t.created_at > now() - interval '1 week' and exists (select 1 from highlight_tags ht where ht.highlight_id = t.id and ht.tag_id = ?)`,
        [projectId, tagId],
      ),
    },
    {
      shape: 'Everything tab with counts',
      input: { query: 'research', limit: LIMIT },
      sql: textSql(owner, workspaceId, `to_tsquery('fb_search', ${fts('research')})`, textTables),
    },
  ];

  const out: SearchShapeResult[] = [];
  const only = process.env.BENCH_SEARCH_SHAPES?.split(',');
  for (const s of only ? shapes.filter((x) => only.some((o) => x.shape.includes(o))) : shapes) {
    log(`search: ${s.shape} ...`);
    const answer = await search(target, s.input); // also the first warm-up
    const exact = await exactSearch(opts.app, workspaceId, userId, s.input);
    const api = await time(() => search(target, s.input));
    const sql = await time(s.sql);
    out.push({
      shape: s.shape,
      apiP50Ms: api.p50,
      apiP95Ms: api.p95,
      sqlP50Ms: sql.p50,
      sqlP95Ms: sql.p95,
      ratio: round(api.p95 / Math.max(sql.p95, 0.1), 2),
      hits: answer.totalCount,
      hitsIsEstimate: answer.totalIsEstimate,
      exactHits: exact.totalCount,
      firstPageAsExact: samePage(answer, exact),
      mustMatchExact: s.mustMatchExact ?? false,
    });
  }
  const reindex =
    process.env.BENCH_SEARCH_REINDEX === '0' ? null : await benchReindex({ app: opts.app, workspaceId, log });
  return { shapes: out, reindex };
}

/**
 * The shapes as a table: p50 / p95 of the API and of the hand-written SQL, the count the API gave
 * ("~" when estimated) beside the exact one, and whether the first page is exact ranking's.
 */
export function searchTable(shapes: readonly SearchShapeResult[]): string[] {
  const head = `  ${'shape'.padEnd(44)} ${'API'.padStart(15)} ${'SQL'.padStart(15)} ${'p95 ratio'.padStart(9)} ${'hits (exact)'.padStart(20)}  first page`;
  return [
    head,
    ...shapes.map((r) => {
      const hits = `${r.hitsIsEstimate ? '~' : ''}${r.hits} (${r.exactHits})`;
      const page = r.firstPageAsExact ? 'as exact' : r.mustMatchExact ? 'DIFFERS (must match)' : 'differs';
      return `  ${r.shape.padEnd(44)} ${`${r.apiP50Ms} / ${r.apiP95Ms}`.padStart(15)} ${`${r.sqlP50Ms} / ${r.sqlP95Ms}`.padStart(15)} ${String(r.ratio).padStart(9)} ${hits.padStart(20)}  ${page}`;
    }),
  ];
}

/** `tsx bench/search.ts`: this benchmark alone, on a database kept between runs. */
async function main(): Promise<void> {
  const { join } = await import('node:path');
  const { keptResearchWorkspace } = await import('./research.ts');
  const options = {
    label: 'bench-search',
    keptDir: process.env.BENCH_SEARCH_DIR ?? '/tmp/fieldbook-search-bench',
    pgPort: process.env.BENCH_SEARCH_PG_PORT ?? '54329',
    // A PostgreSQL already running (the kept cluster, say) instead of starting the embedded one.
    env: process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {},
    // BENCH_SEARCH_MIGRATE=0 searches the kept database as it is.
    migrate: process.env.BENCH_SEARCH_MIGRATE !== '0',
  };
  await withFieldbook(options, async ({ fieldbook, url, dataDir, mailbox, log }) => {
    const stateFile = join(dataDir, 'bench-search.json');
    const state = await keptResearchWorkspace({
      owner: fieldbook.db.owner,
      url,
      mailbox,
      stateFile,
      prefix: 'bench-search',
      scale: Number(process.env.BENCH_RESEARCH_SCALE ?? 1),
      log,
    });
    const { token } = state;
    const { shapes, reindex } = await benchSearch({
      owner: fieldbook.db.owner,
      app: fieldbook.db.app,
      url,
      token,
      workspaceId: state.workspaceId,
      log,
    });
    for (const line of searchTable(shapes)) console.log(line);
    // BENCH_SEARCH_JSON=file keeps the shapes' figures, in bench/results.json's `search` form.
    if (process.env.BENCH_SEARCH_JSON)
      (await import('node:fs')).writeFileSync(process.env.BENCH_SEARCH_JSON, `${JSON.stringify(shapes, null, 2)}\n`);
    if (reindex)
      console.log(
        `  full reindex: ${reindex.items} items in ${reindex.seconds} s, ${reindex.itemsPerSecond} items/s (${reindex.server})`,
      );
  });
}

if (process.argv[1]?.endsWith('bench/search.ts')) await main();
