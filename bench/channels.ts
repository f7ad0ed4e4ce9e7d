/**
 * Channels at size: one CSV import of BENCH_CHANNEL_POINTS data points (default 1,000,000; the
 * target is 20,000 points/s, indexing included: the search vector and trigram index are written
 * with each row), then three screens against that channel, BENCH_CHANNEL_PAGE_RUNS times each:
 *
 * - the channel page as it opens, every query at once: the channel with its count and sparkline,
 *   the first 25 points with their total, the chart (aggregation periods 1 to 5 in turn), the
 *   datasets with their counts and imports, the themes list, emerging themes, topics, clustering;
 * - the same page filtered by a common word and by a rare one (the points and their count);
 * - a theme's page: the theme, the other themes, its chart and its first points.
 *
 * Beside the filtered page and the theme page, the hand-written SQL a person would write for the
 * same answer (the matches' newest page and their count; the theme's count, newest page and weekly
 * counts) is timed in the same run, in the workspace's scope.
 *
 * The themes are a fixture, not a clustering (clustering a million points is bench/themes.ts's
 * subject): one theme per opening phrase of the generated text, written straight into the
 * memberships, so each theme holds about 1/12 of the channel and its counters are kept by the same
 * trigger as in use.
 *
 * Run alone with `npx tsx --no-node-snapshot bench/channels.ts`: its database is kept between runs
 * in BENCH_CHANNEL_DIR (default /tmp/fieldbook-channels-bench, PostgreSQL on BENCH_CHANNEL_PG_PORT,
 * default 54345), so a second run measures the screens again without importing (delete the folder,
 * or change BENCH_CHANNEL_POINTS, to import again).
 */
import type { Knex } from 'knex';
import { graphql, percentile, round, signUpResearcher, withFieldbook } from './support.ts';

const POINTS = Number(process.env.BENCH_CHANNEL_POINTS ?? 1_000_000);
const PAGE_RUNS = Number(process.env.BENCH_CHANNEL_PAGE_RUNS ?? 20);
/** The CSV upload cap is 50 MiB: the file is split into parts below it, one dataset each. */
const ROWS_PER_FILE = Number(process.env.BENCH_CHANNEL_ROWS_PER_FILE ?? 250_000);

interface Timed {
  p50Ms: number;
  p95Ms: number;
}

export interface ScreenBench extends Timed {
  runs: number;
  slowestQuery: string;
  queries: Record<string, Timed>;
  /** The hand-written SQL for the same answer, timed in the same run. */
  sql?: Timed;
}

export interface ChannelsBench {
  points: number;
  /** Null when the kept database already held the channel. */
  import: { seconds: number; pointsPerSec: number; files: number } | null;
  page: ScreenBench;
  filtered?: Record<string, ScreenBench>;
  themePage?: ScreenBench;
}

const WORDS = [
  'Exports',
  'time out',
  'on large',
  'projects',
  'search',
  'is slow',
  'love the',
  'new tagging',
  'billing',
  'confusing',
  'onboarding',
  'checklist',
];

function csvPart(from: number, count: number): string {
  const lines = ['Comment,Date'];
  const start = Date.UTC(2025, 0, 1);
  for (let i = from; i < from + count; i++) {
    const day = new Date(start + (i % 600) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} ${i},${day}`);
  }
  return lines.join('\n');
}

const THEME =
  'id channelId title titleIsManual phrases datumCount retired mergedInto version topic { id title } summary { title summary datumCount model label }';

/** What the channel page asks when it opens (ChannelPage, its datasets and themes panels). */
const PAGE_QUERIES: Record<string, string> = {
  channel: 'query($id: ID!) { channel(id: $id) { id name description dataPointCount weeklyDataPoints } }',
  points:
    'query($id: ID!) { channelDataPoints(channelId: $id, first: 25) { totalCount totalCountIsEstimate hasNextPage endCursor nodes { id channelId source externalId content createdAt sentiment person { id name } fields { value } } } }',
  series:
    'query($id: ID!, $periods: Int) { channelDataPointSeries(channelId: $id, interval: WEEK, aggregationPeriods: $periods) { start count } }',
  datasets:
    'query($id: ID!) { channel(id: $id) { datasets { id name source createdAt pointCount lastImport { status } } } channelImports(channelId: $id) { id status recordsCreated } }',
  themes: `query($id: ID!) { channelThemes(channelId: $id) { ${THEME} } }`,
  emerging:
    'query($id: ID!) { channelEmergingThemes(channelId: $id, interval: WEEK, aggregationPeriods: 2) { theme { id } previousCount currentCount } }',
  topics: 'query($id: ID!) { channelTopics(channelId: $id) { id title datumCount themes { id title datumCount } } }',
  clustering:
    'query($id: ID!) { channelClustering(channelId: $id) { id version status } channelClusteringOptions { sensitivities { value label } amounts { value label } } }',
};

const FILTERED_QUERY = {
  points:
    'query($id: ID!, $search: String) { channelDataPoints(channelId: $id, first: 25, search: $search) { totalCount totalCountIsEstimate hasNextPage endCursor nodes { id channelId source externalId content createdAt sentiment person { id name } fields { value } } } }',
};

/** What a theme's page asks when it opens (ThemePage and its point list). */
const THEME_QUERIES: Record<string, string> = {
  theme: `query($theme: ID!) { channelTheme(id: $theme) { ${THEME} } }`,
  others: `query($id: ID!) { channelThemes(channelId: $id) { ${THEME} } }`,
  series:
    'query($theme: ID!, $periods: Int) { channelThemeSeries(themeId: $theme, interval: WEEK, aggregationPeriods: $periods) { start count } }',
  points:
    'query($theme: ID!) { channelThemeDataPoints(themeId: $theme, first: 10, offset: 0) { totalCount hasNextPage nodes { id content createdAt sentiment person { id name } } } }',
};

/** Runs a screen's queries all at once (as the page does), `runs` times after two warm-ups. */
async function measureScreen(
  o: { url: string; token: string; ws: string; runs: number },
  queries: Record<string, string>,
  variables: (run: number) => Record<string, unknown>,
  baseline?: (run: number) => Promise<unknown>,
): Promise<ScreenBench> {
  const screen: number[] = [];
  const sql: number[] = [];
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(queries).map((k) => [k, []]));
  for (let i = 0; i < o.runs + 2; i++) {
    const t0 = performance.now();
    await Promise.all(
      Object.entries(queries).map(async ([name, query]) => {
        const t = performance.now();
        await graphql(o.url, query, variables(i), o.token, o.ws);
        if (i >= 2) times[name]!.push(performance.now() - t);
      }),
    );
    // The first two warm the caches.
    if (i >= 2) screen.push(performance.now() - t0);
    if (baseline) {
      const t = performance.now();
      await baseline(i);
      if (i >= 2) sql.push(performance.now() - t);
    }
  }
  const timed = (t: number[]): Timed => ({ p50Ms: round(percentile(t, 50)), p95Ms: round(percentile(t, 95)) });
  const perQuery = Object.fromEntries(Object.entries(times).map(([k, t]) => [k, timed(t)]));
  const slowestQuery = Object.entries(perQuery).sort((a, b) => b[1].p95Ms - a[1].p95Ms)[0]![0];
  return { runs: o.runs, ...timed(screen), slowestQuery, queries: perQuery, ...(baseline ? { sql: timed(sql) } : {}) };
}

/** Imports the channel's points from CSV parts, as a person would upload them. */
async function importPoints(
  url: string,
  token: string,
  ws: string,
  channelId: string,
  log: (line: string) => void,
): Promise<{ seconds: number; pointsPerSec: number; files: number }> {
  log(`channels: importing ${POINTS} data points from CSV ...`);
  const settings = encodeURIComponent(JSON.stringify({ analyzeColumnLabel: 'Comment', timestampColumnLabel: 'Date' }));
  let files = 0;
  let importSeconds = 0;
  for (let from = 0; from < POINTS; from += ROWS_PER_FILE) {
    const body = csvPart(from, Math.min(ROWS_PER_FILE, POINTS - from));
    files += 1;
    const t0 = performance.now();
    log(`channels: uploading part ${files} (${(body.length / 1024 / 1024).toFixed(1)} MB) ...`);
    const res = await fetch(`${url}/api/channels/${channelId}/imports?name=Part%20${files}&settings=${settings}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-fieldbook-workspace': ws, 'content-type': 'text/csv' },
      body,
    });
    if (res.status !== 202) throw new Error(`the import was answered ${res.status}: ${await res.text()}`);
    const { importId } = (await res.json()) as { importId: string };
    let shown = performance.now();
    for (let lost = 0; ; ) {
      // A poll is a read: one whose connection the busy server dropped is asked again.
      let run;
      try {
        run = (
          await graphql<{ channelImport: { status: string; recordsCreated: number; error: string | null } }>(
            url,
            'query($id: ID!) { channelImport(id: $id) { status recordsCreated error } }',
            { id: importId },
            token,
            ws,
          )
        ).channelImport;
      } catch (error) {
        if (++lost > 5) throw error;
        log(`channels: a progress poll failed (${(error as Error).message}); asking again`);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (run.status === 'FAILED') throw new Error(`the import failed: ${run.error}`);
      if (run.status === 'COMPLETED') break;
      if (performance.now() - shown > 30_000) {
        shown = performance.now();
        log(`channels: ${run.recordsCreated} points in after ${Math.round((shown - t0) / 1000)} s`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    importSeconds += (performance.now() - t0) / 1000;
  }
  return { seconds: round(importSeconds, 1), pointsPerSec: Math.round(POINTS / importSeconds), files };
}

/** One theme per opening phrase of the generated text, its points placed in it (see the header). */
async function themeFixture(owner: Knex, ws: string, channelId: string, log: (line: string) => void): Promise<string> {
  const { withTenant } = await import('../core/src/db/tenancy.ts');
  return withTenant(owner, { workspaceId: ws }, async (trx) => {
    const existing = (await trx('channel_themes').where({ channel_id: channelId }).orderBy('title').first('id')) as
      | { id: string }
      | undefined;
    if (existing) return existing.id;
    log('channels: placing the points in 12 themes ...');
    const t0 = performance.now();
    const themes = (await trx('channel_themes')
      .insert(
        WORDS.map((w) => ({
          workspace_id: ws,
          channel_id: channelId,
          title: w,
          phrases: JSON.stringify([w.toLowerCase()]),
          version: 1,
        })),
      )
      .returning(['id', 'title'])) as Array<{ id: string; title: string }>;
    for (const t of themes) {
      await trx.raw(
        `insert into channel_theme_members (datapoint_id, workspace_id, channel_id, theme_id, created_at)
         select d.id, d.workspace_id, d.channel_id, ?, d.created_at from channel_datapoints d where d.workspace_id = ? and d.channel_id = ? and d.content like ?`,
        [t.id, ws, channelId, `${t.title} %`],
      );
    }
    log(`channels: themes placed in ${Math.round((performance.now() - t0) / 1000)} s`);
    return themes.sort((a, b) => a.title.localeCompare(b.title))[0]!.id;
  });
}

export async function benchChannels(o: {
  url: string;
  token: string;
  owner: Knex;
  log(line: string): void;
  kept?: { workspaceId: string; channelId: string } | null;
  onImported?(kept: { workspaceId: string; channelId: string }): void;
  /** A fresh access token after the import (a long one outlives the first). */
  signIn?(): Promise<string>;
}): Promise<ChannelsBench> {
  const { url, owner, log } = o;
  let token = o.token;
  let imported: ChannelsBench['import'] = null;
  let ws = o.kept?.workspaceId;
  let channelId = o.kept?.channelId;
  if (!ws || !channelId) {
    ws = (
      await graphql<{ createWorkspace: { workspace: { id: string } } }>(
        url,
        'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
        { input: { method: 'AUTH0', teamName: `Channels bench ${Date.now().toString(36)}` } },
        token,
      )
    ).createWorkspace.workspace.id;
    channelId = (
      await graphql<{ createChannel: { id: string } }>(
        url,
        'mutation { createChannel(input: { name: "Support tickets" }) { id } }',
        {},
        token,
        ws,
      )
    ).createChannel.id;
    imported = await importPoints(url, token, ws, channelId, log);
    o.onImported?.({ workspaceId: ws, channelId });
  }
  const themeId = await themeFixture(owner, ws, channelId, log);
  if (o.signIn) token = await o.signIn();
  const { withTenant } = await import('../core/src/db/tenancy.ts');
  const inScope = (body: (trx: Knex.Transaction) => Promise<unknown>) => withTenant(owner, { workspaceId: ws }, body);
  const screen = { url, token, ws, runs: PAGE_RUNS };

  log(`channels: the channel page's ${Object.keys(PAGE_QUERIES).length} queries at once, ${PAGE_RUNS} times ...`);
  const page = await measureScreen(screen, PAGE_QUERIES, (i) => ({ id: channelId, periods: 1 + (i % 5) }));

  // A common word (in 1 point of 6) and a rare one (a single point's number).
  const filtered: Record<string, ScreenBench> = {};
  for (const [name, word] of [
    ['common word', 'billing'],
    ['rare word', String(Math.floor(POINTS / 2) + 7)],
  ] as const) {
    log(
      `channels: the channel page filtered by a ${name} ("${word}"), ${PAGE_RUNS} times, beside hand-written SQL ...`,
    );
    filtered[name] = await measureScreen(
      screen,
      FILTERED_QUERY,
      () => ({ id: channelId, search: word }),
      () =>
        inScope(async (trx) => {
          const match = "search_vector @@ to_tsquery('fb_search', quote_literal(?) || ':*')";
          await trx.raw(
            `select id, content, created_at from channel_datapoints where workspace_id = ? and channel_id = ? and ${match} order by created_at desc, id desc limit 26`,
            [ws, channelId, word],
          );
          await trx.raw(
            `select count(*) from channel_datapoints where workspace_id = ? and channel_id = ? and ${match}`,
            [ws, channelId, word],
          );
        }),
    );
  }

  log(`channels: a theme's page, ${PAGE_RUNS} times, beside hand-written SQL ...`);
  const themePage = await measureScreen(
    screen,
    THEME_QUERIES,
    (i) => ({ id: channelId, theme: themeId, periods: 1 + (i % 5) }),
    () =>
      inScope(async (trx) => {
        await trx.raw('select count(*) from channel_theme_members where theme_id = ?', [themeId]);
        await trx.raw(
          'select d.id, d.content, d.created_at from channel_theme_members m join channel_datapoints d on d.id = m.datapoint_id where m.theme_id = ? order by d.created_at desc, d.id desc limit 10',
          [themeId],
        );
        await trx.raw(
          `select date_trunc('week', d.created_at at time zone 'UTC') as week, count(*) from channel_theme_members m join channel_datapoints d on d.id = m.datapoint_id where m.theme_id = ? group by 1 order by 1`,
          [themeId],
        );
      }),
  );
  return { points: POINTS, import: imported, page, filtered, themePage };
}

const screenLines = (title: string, s: ScreenBench): string[] => [
  `  ${title} (${Object.keys(s.queries).length} quer${Object.keys(s.queries).length === 1 ? 'y' : 'ies'} at once): p50 ${s.p50Ms} ms, p95 ${s.p95Ms} ms${s.sql ? `; hand-written SQL p50 ${s.sql.p50Ms} ms, p95 ${s.sql.p95Ms} ms` : ''} (${s.runs} loads)`,
  ...Object.entries(s.queries).map(([k, q]) => `    ${k}: p50 ${q.p50Ms} ms, p95 ${q.p95Ms} ms`),
];

export const channelsLines = (c: ChannelsBench): string[] => [
  `Channels (${c.points.toLocaleString('en')} data points in one channel)`,
  c.import
    ? `  CSV import, indexing included: ${c.import.pointsPerSec.toLocaleString('en')} points/s (${c.import.seconds} s, ${c.import.files} file${c.import.files === 1 ? '' : 's'}; target 20,000)`
    : '  CSV import: not run (the kept database holds the channel)',
  ...screenLines('channel page, target p95 < 100 ms', c.page),
  ...Object.entries(c.filtered ?? {}).flatMap(([name, s]) => screenLines(`channel page filtered by a ${name}`, s)),
  ...(c.themePage ? screenLines("a theme's page", c.themePage) : []),
];

/** `npx tsx --no-node-snapshot bench/channels.ts`: this part alone, on its kept database. */
async function main(): Promise<void> {
  const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const keptDir = process.env.BENCH_CHANNEL_DIR ?? '/tmp/fieldbook-channels-bench';
  await withFieldbook(
    { label: 'bench-channels', keptDir, pgPort: process.env.BENCH_CHANNEL_PG_PORT ?? '54345', discoverPlugins: false },
    async ({ fieldbook, url, dataDir, mailbox }) => {
      const log = (line: string) => process.stderr.write(`${line}\n`);
      // The researcher and the channel of an earlier run of the same size, if there was one.
      const stateFile = join(dataDir, 'bench-channels.json');
      type State = { email: string; password: string; points: number; workspaceId?: string; channelId?: string };
      let state = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : null;
      let token: string;
      const signIn = async () =>
        (
          await graphql<{ signIn: { accessToken: string } }>(
            url,
            'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }',
            { email: state!.email, password: state!.password },
          )
        ).signIn.accessToken;
      if (state && state.points === POINTS && state.channelId) {
        token = await signIn();
      } else {
        const account = await signUpResearcher(url, mailbox, 'bench-channels', 'Bench Channels');
        token = account.token;
        state = { email: account.email, password: account.password, points: POINTS };
      }
      const kept =
        state.workspaceId && state.channelId ? { workspaceId: state.workspaceId, channelId: state.channelId } : null;
      const result = await benchChannels({
        url,
        token,
        owner: fieldbook.db.owner,
        log,
        kept,
        onImported: (k) => writeFileSync(stateFile, JSON.stringify({ ...state, ...k })),
        signIn,
      });
      for (const line of channelsLines(result)) console.log(line);
    },
  );
}

if (process.argv[1]?.endsWith('bench/channels.ts')) await main();
