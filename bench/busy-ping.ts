/**
 * /ping while the all-in-one process does heavy channel work: a request every 50 ms (sent on the
 * clock, not after the last answer, so a held event loop shows in every request it holds), its
 * p50, p95 and slowest answer:
 *
 * - idle, as the baseline;
 * - while a channel of BENCH_BUSY_POINTS data points (default 10,000) is clustered again and again
 *   (BENCH_BUSY_RUNS runs, default 3, one after another; a run asked for while one is going is refused);
 * - while a CSV file of about 49 MB is previewed again and again (BENCH_BUSY_PREVIEWS, default 5).
 *
 * `npx tsx --no-node-snapshot bench/busy-ping.ts` runs it alone.
 */
import { Worker } from 'node:worker_threads';
import { graphql, percentile, round, runAlone } from './support.ts';

const POINTS = Number(process.env.BENCH_BUSY_POINTS ?? 10_000);
const RUNS = Number(process.env.BENCH_BUSY_RUNS ?? 3);
const PREVIEWS = Number(process.env.BENCH_BUSY_PREVIEWS ?? 5);
const WORDS = ['export', 'login', 'price', 'mobile', 'crash', 'sync', 'invoice', 'search', 'upload', 'billing', 'tag'];

interface Pings {
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Pings answered with a reset connection instead. */
  lost?: number;
}

/**
 * The pinger, in a worker thread of the bench: the server runs in the bench's process, and a timer
 * on its thread would stop firing exactly while that thread is held, hiding what is measured.
 */
const PINGER = `
const { parentPort, workerData } = require('node:worker_threads');
const times = [];
let lost = 0;
const inFlight = new Set();
const timer = setInterval(() => {
  const t = performance.now();
  const p = fetch(workerData + '/ping')
    .then((r) => r.arrayBuffer())
    .then(() => void times.push(performance.now() - t))
    .catch(() => void lost++)
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
}, 50);
parentPort.once('message', async () => {
  clearInterval(timer);
  await Promise.allSettled(inFlight);
  parentPort.postMessage({ times, lost });
});
`;

/** Pings `url` every 50 ms while `body` runs; answers the pings' times and what `body` answered. */
async function pingDuring<T>(url: string, body: () => Promise<T>): Promise<{ pings: Pings; value: T; ms: number }> {
  const pinger = new Worker(PINGER, { eval: true, workerData: url });
  const started = performance.now();
  try {
    const value = await body();
    const ms = Math.round(performance.now() - started);
    const { times, lost } = await new Promise<{ times: number[]; lost: number }>((resolve) => {
      pinger.once('message', resolve);
      pinger.postMessage('stop');
    });
    return { pings: { ...summary(times), lost }, value, ms };
  } finally {
    await pinger.terminate();
  }
}

const summary = (t: number[]): Pings => ({
  count: t.length,
  p50Ms: round(percentile(t, 50)),
  p95Ms: round(percentile(t, 95)),
  maxMs: round(Math.max(...t)),
});

const line = (what: string, r: { pings: Pings; ms: number }) =>
  `  ${what} (${round(r.ms / 1000)} s): /ping p50 ${r.pings.p50Ms} ms, p95 ${r.pings.p95Ms} ms, slowest ${r.pings.maxMs} ms (${r.pings.count} pings${r.pings.lost ? `, ${r.pings.lost} lost` : ''})`;

await runAlone(
  'busy-ping',
  async ({ url, token, log }) => {
    const ws = (
      await graphql<{ createWorkspace: { workspace: { id: string } } }>(
        url,
        'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
        { input: { method: 'AUTH0', teamName: 'Busy ping bench' } },
        token,
      )
    ).createWorkspace.workspace.id;
    // A request on a connection the server closed while it was held is asked again.
    const gql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await graphql<T>(url, query, variables, token, ws);
        } catch (error) {
          if (!(error instanceof TypeError) || attempt >= 5) throw error;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    };
    const channelId = (
      await gql<{ createChannel: { id: string } }>('mutation { createChannel(input: { name: "Busy" }) { id } }', {})
    ).createChannel.id;
    log(`busy-ping: pushing ${POINTS} data points ...`);
    for (let from = 0; from < POINTS; from += 500) {
      const dataPoints = Array.from({ length: Math.min(500, POINTS - from) }, (_, j) => {
        const i = from + j;
        return {
          externalId: `p-${i}`,
          content: `Point ${i}: the ${WORDS[i % 11]} ${WORDS[(i * 7) % 11]} is ${WORDS[(i * 3) % 11]} for customer ${i % 97}, ${WORDS[(i * 5) % 11]} again`,
        };
      });
      const res = await fetch(`${url}/api/channels/${channelId}/datapoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-fieldbook-workspace': ws, 'content-type': 'application/json' },
        body: JSON.stringify({ dataPoints }),
      });
      if (!res.ok) throw new Error(`pushing points was answered ${res.status}: ${await res.text()}`);
    }
    const lines = [`/ping while the all-in-one process works (a ping every 50 ms)`];
    // Each figure is said as soon as it is measured, so a part that fails leaves the others.
    const say = (text: string) => {
      lines.push(text);
      log(text);
    };
    say(line('idle', await pingDuring(url, () => new Promise((r) => setTimeout(r, 3000)))));

    log(`busy-ping: clustering ${POINTS} points ${RUNS} times ...`);
    let refused = 0;
    const clustering = await pingDuring(url, async () => {
      for (let run = 0; run < RUNS; run++) {
        // Refused when a retried request had already started it.
        await gql('mutation($c: ID!) { clusterChannel(channelId: $c) { id } }', { c: channelId }).catch(
          (error: Error) => {
            if (!error.message.includes('being clustered already')) throw error;
          },
        );
        // Asked again while it runs: refused, not run beside it.
        await gql('mutation($c: ID!) { clusterChannel(channelId: $c) { id } }', { c: channelId }).catch(
          () => refused++,
        );
        for (;;) {
          const { channelClustering } = await gql<{ channelClustering: { status: string; error: string | null } }>(
            'query($c: ID!) { channelClustering(channelId: $c) { status error } }',
            { c: channelId },
          );
          if (channelClustering.status === 'FAILED') throw new Error(`clustering failed: ${channelClustering.error}`);
          if (channelClustering.status === 'COMPLETED') break;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    });
    say(line(`${RUNS} clusterings of ${POINTS.toLocaleString('en')} points, one after another`, clustering));
    say(`    a clustering asked for while one ran: ${refused} of ${RUNS} refused`);

    const rows = ['Comment,Date'];
    for (let i = 0, size = 0; size < 49 * 1024 * 1024; i++) {
      const row = `"Answer ${i}: ${WORDS[i % 11]} is slow, ${'and more words '.repeat(4)}",2026-04-0${1 + (i % 9)}`;
      rows.push(row);
      size += row.length + 1;
    }
    // Encoded once: the bench's own work of sending it stays out of what is measured as far as it can.
    const csv = Buffer.from(rows.join('\n'));
    log(`busy-ping: previewing a ${(csv.length / 1024 / 1024).toFixed(1)} MB CSV file ${PREVIEWS} times ...`);
    let answered = 0;
    const failed: string[] = [];
    const previews = await pingDuring(url, async () => {
      for (let i = 0; i < PREVIEWS; i++) {
        try {
          const res = await fetch(`${url}/api/channels/${channelId}/csv/preview`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'x-fieldbook-workspace': ws, 'content-type': 'text/csv' },
            body: csv,
          });
          answered = (await res.arrayBuffer()).byteLength;
          if (!res.ok) failed.push(`answered ${res.status}`);
        } catch (error) {
          failed.push(`${(error as Error).message}: ${String((error as Error).cause)}`);
        }
      }
    });
    say(line(`${PREVIEWS} previews of a ${(csv.length / 1024 / 1024).toFixed(0)} MB CSV file`, previews));
    say(
      `    each preview answered ${(answered / 1024).toFixed(1)} KB in ${round(previews.ms / PREVIEWS)} ms${failed.length ? `; ${failed.length} failed (${failed[0]})` : ''}`,
    );
    return lines;
  },
  { discoverPlugins: false },
);
