/**
 * Channels at size: one CSV import of BENCH_CHANNEL_POINTS data points (default 1,000,000; the
 * target is 20,000 points/s, indexing included: the search vector and trigram index are written
 * with each row), then the channel page's queries against that channel, BENCH_CHANNEL_PAGE_RUNS
 * times: what the page asks when opened (the channel with its count and sparkline, the first 25
 * points with their total, the chart's series, the datasets with their counts and imports).
 * Run alone with `npx tsx --no-node-snapshot bench/channels.ts`.
 */
import { graphql, percentile, round, runAlone } from './support.ts';

const POINTS = Number(process.env.BENCH_CHANNEL_POINTS ?? 1_000_000);
const PAGE_RUNS = Number(process.env.BENCH_CHANNEL_PAGE_RUNS ?? 20);
/** The CSV upload cap is 50 MiB: the file is split into parts below it, one dataset each. */
const ROWS_PER_FILE = Number(process.env.BENCH_CHANNEL_ROWS_PER_FILE ?? 250_000);

export interface ChannelsBench {
  points: number;
  import: { seconds: number; pointsPerSec: number; files: number };
  page: { runs: number; p50Ms: number; p95Ms: number; slowestQuery: string; queries: Record<string, { p50Ms: number; p95Ms: number }> };
}

const WORDS = ['Exports', 'time out', 'on large', 'projects', 'search', 'is slow', 'love the', 'new tagging', 'billing', 'confusing', 'onboarding', 'checklist'];

function csvPart(from: number, count: number): string {
  const lines = ['Comment,Date'];
  const start = Date.UTC(2025, 0, 1);
  for (let i = from; i < from + count; i++) {
    const day = new Date(start + (i % 600) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} ${i},${day}`);
  }
  return lines.join('\n');
}

const PAGE_QUERIES: Record<string, string> = {
  channel: 'query($id: ID!) { channel(id: $id) { id name description dataPointCount weeklyDataPoints } }',
  points:
    'query($id: ID!) { channelDataPoints(channelId: $id, first: 25) { totalCount hasNextPage endCursor nodes { id channelId source externalId content createdAt sentiment person { id name } fields { value } } } }',
  series: 'query($id: ID!) { channelDataPointSeries(channelId: $id, interval: WEEK, aggregationPeriods: 2) { start count } }',
  datasets: 'query($id: ID!) { channel(id: $id) { datasets { id name source createdAt pointCount lastImport { status } } } channelImports(channelId: $id) { id status recordsCreated } }',
};

export async function benchChannels(o: { url: string; token: string; log(line: string): void }): Promise<ChannelsBench> {
  const { url, token, log } = o;
  const ws = (
    await graphql<{ createWorkspace: { workspace: { id: string } } }>(url, 'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }', { input: { method: 'AUTH0', teamName: `Channels bench ${Date.now().toString(36)}` } }, token)
  ).createWorkspace.workspace.id;
  const channelId = (await graphql<{ createChannel: { id: string } }>(url, 'mutation { createChannel(input: { name: "Support tickets" }) { id } }', {}, token, ws)).createChannel.id;

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
        run = (await graphql<{ channelImport: { status: string; recordsCreated: number; error: string | null } }>(url, 'query($id: ID!) { channelImport(id: $id) { status recordsCreated error } }', { id: importId }, token, ws)).channelImport;
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

  log(`channels: the channel page's queries, ${PAGE_RUNS} times ...`);
  const pageTimes: number[] = [];
  const queryTimes: Record<string, number[]> = Object.fromEntries(Object.keys(PAGE_QUERIES).map((k) => [k, []]));
  for (let i = 0; i < PAGE_RUNS + 2; i++) {
    const t0 = performance.now();
    // As the page does: all at once.
    await Promise.all(
      Object.entries(PAGE_QUERIES).map(async ([name, query]) => {
        const t = performance.now();
        await graphql(url, query, { id: channelId }, token, ws);
        if (i >= 2) queryTimes[name]!.push(performance.now() - t);
      }),
    );
    // The first two warm the caches.
    if (i >= 2) pageTimes.push(performance.now() - t0);
  }
  const queries = Object.fromEntries(Object.entries(queryTimes).map(([k, t]) => [k, { p50Ms: round(percentile(t, 50)), p95Ms: round(percentile(t, 95)) }]));
  const slowestQuery = Object.entries(queries).sort((a, b) => b[1].p95Ms - a[1].p95Ms)[0]![0];
  return {
    points: POINTS,
    import: { seconds: round(importSeconds, 1), pointsPerSec: Math.round(POINTS / importSeconds), files },
    page: { runs: PAGE_RUNS, p50Ms: round(percentile(pageTimes, 50)), p95Ms: round(percentile(pageTimes, 95)), slowestQuery, queries },
  };
}

export const channelsLines = (c: ChannelsBench): string[] => [
  `Channels (${c.points.toLocaleString('en')} data points in one channel)`,
  `  CSV import, indexing included: ${c.import.pointsPerSec.toLocaleString('en')} points/s (${c.import.seconds} s, ${c.import.files} file${c.import.files === 1 ? '' : 's'}; target 20,000)`,
  `  channel page (its ${Object.keys(c.page.queries).length} queries at once): p50 ${c.page.p50Ms} ms, p95 ${c.page.p95Ms} ms (target p95 < 100 ms; ${c.page.runs} loads)`,
  ...Object.entries(c.page.queries).map(([k, q]) => `    ${k}: p50 ${q.p50Ms} ms, p95 ${q.p95Ms} ms`),
];

/** `npx tsx --no-node-snapshot bench/channels.ts`: this part alone, on a new database. */
async function main(): Promise<void> {
  await runAlone('channels', async ({ url, token, log }) => channelsLines(await benchChannels({ url, token, log })), {
    researcherName: 'Bench Channels',
    discoverPlugins: false,
  });
}

if (process.argv[1]?.endsWith('bench/channels.ts')) await main();
