import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { signedDelivery } from './slack-delivery.ts';
import { graphql, percentile, round, runAlone } from './support.ts';

export interface WebhookBench {
  /** The project the notes went to (Slack is enabled there). */
  projectId: string;
  connections: number;
  seconds: number;
  /** Signed deliveries per second through verify, store and enqueue, and their latency. */
  intake: { reqPerSec: number; p50Ms: number; p99Ms: number; sent: number; non2xx: number; errors: number };
  /** After the load: how long the queue took to turn every stored delivery into a note. */
  backlog: { events: number; drainSeconds: number; notesPerSec: number };
  /**
   * A backlog built while the workers were held (notes locked), then drained: the workers'
   * own pace, not bounded by the intake feeding them.
   */
  heldBacklog: { events: number; drainSeconds: number; notesPerSec: number };
  /** The intake while that backlog was built: with no drain beside it, what taking deliveries alone costs. */
  heldIntake: { reqPerSec: number; p50Ms: number; p99Ms: number };
  /** One delivery at a time on a quiet server: from the POST to the note being readable. */
  intakeToNote: { count: number; p50Ms: number; p95Ms: number };
}

const SECRET = 'bench-slack-signing-secret';
export const BENCH_SLACK_ENV = {
  SLACK_CLIENT_ID: 'bench-client',
  SLACK_CLIENT_SECRET: 'bench-client-secret',
  SLACK_SIGNING_SECRET: SECRET,
} as const;
/** The Slack workspace the local Slack connects (its default team). */
const TEAM = 'T0FAKE001';

function load(
  args: Record<string, unknown>,
): Promise<{ sent: number; requests: number; p50: number; p99: number; non2xx: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'webhook-load.ts'), JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out))
        : reject(new Error(`webhook load exited with ${code}: ${err.slice(-1000)}`)),
    );
  });
}

/**
 * Webhook intake with the Slack plugin: signed message shortcuts, each verified, stored once and
 * queued in one transaction, then turned into a note by a job. Fieldbook must have been started
 * with BENCH_SLACK_ENV.
 */
export async function benchWebhooks(opts: {
  url: string;
  owner: Knex;
  token: string;
  workspaceId: string;
  responseUrl: string;
  log(line: string): void;
}): Promise<WebhookBench> {
  const { url, owner, token, workspaceId, log } = opts;
  const as = async <T>(query: string, variables: Record<string, unknown> = {}) =>
    graphql<T>(url, query, variables, token, workspaceId);
  const { createProject } = await as<{ createProject: { id: string } }>(
    'mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }',
    { i: { title: 'Slack inbox (bench)' } },
  );
  await as(
    'mutation($p: String!) { installPlugin(pluginId: "slack", settings: [{ key: "projectId", text: $p }]) { id } }',
    { p: createProject.id },
  );
  await as(
    'mutation($p: ID!) { setProjectPluginEnabled(projectId: $p, pluginId: "slack", enabled: true) { enabled } }',
    { p: createProject.id },
  );
  await connectSlack(url, token, workspaceId);
  const notes = async () =>
    Number((await owner('notes').where({ project_id: createProject.id }).count<Array<{ n: number }>>('* as n'))[0]!.n);
  const pending = async () =>
    Number(
      (
        await owner('plugin_webhook_events')
          .whereNull('handled_at')
          .whereNotNull('installation_id')
          .count<Array<{ n: number }>>('* as n')
      )[0]!.n,
    );

  const connections = Number(process.env.BENCH_WEBHOOK_CONNECTIONS ?? 20);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const target = { url: `${url}/slack/webhook`, secret: SECRET, teamId: TEAM, responseUrl: opts.responseUrl };
  // The notes' own events (automations, followers, AI steps) are left to finish before each phase,
  // so that every phase starts on a server at rest whichever code made the notes before it.
  const events = async () =>
    Number(
      (
        await owner.raw<{ rows: Array<{ n: number }> }>(
          `select count(*)::int as n from pgboss.job where name like 'event.%' and state in ('created', 'retry', 'active')`,
        )
      ).rows[0]!.n,
    );
  const settle = async () => {
    const until = performance.now() + 90_000;
    while ((await events()) > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 500));
  };
  await load({ ...target, connections, seconds: 2, first: 0 }); // warm-up, unmeasured
  await settle();
  log('webhooks: intake to note, one at a time, on a server at rest ...');
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const count = await notes();
    // Numbered past any the load could have sent: each is a message not yet saved.
    const delivery = signedDelivery(target, 900_000 + i, 'single');
    const started = performance.now();
    const res = await fetch(target.url, { method: 'POST', headers: delivery.headers, body: delivery.body });
    if (res.status !== 200) throw new Error(`a signed delivery was answered ${res.status}`);
    while ((await notes()) === count && performance.now() - started < 30_000)
      await new Promise((r) => setTimeout(r, 10));
    times.push(performance.now() - started);
  }
  await settle();
  log(`webhooks: signed Slack deliveries, ${connections} connections, ${seconds} s ...`);
  const before = await notes();
  const run = await load({ ...target, connections, seconds, first: 100_000 });
  const loadEnded = performance.now();
  const drainStart = loadEnded;
  const deadline = drainStart + 300_000;
  while ((await pending()) > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if ((await pending()) > 0) throw new Error('stored deliveries were still waiting five minutes after the load');
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const made = (await notes()) - before;

  await settle();
  log('webhooks: a backlog built with the workers held, then drained ...');
  const heldBefore = await notes();
  // A share lock on notes lets the count below read them but holds every insert, so the workers
  // stop at their first batch while the deliveries pile up; releasing it starts the drain.
  const hold = await owner.transaction();
  let drained: { made: number; seconds: number };
  let held: Awaited<ReturnType<typeof load>>;
  try {
    await hold.raw('lock table notes in share mode');
    held = await load({
      ...target,
      connections,
      seconds: Number(process.env.BENCH_BACKLOG_SECONDS ?? 5),
      first: 200_000,
    });
  } finally {
    await hold.commit();
    const started = performance.now();
    const until = started + 300_000;
    while ((await pending()) > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    drained = { made: (await notes()) - heldBefore, seconds: (performance.now() - started) / 1000 };
  }
  if ((await pending()) > 0) throw new Error('a held backlog was still waiting five minutes after its release');

  return {
    projectId: createProject.id,
    connections,
    seconds,
    intake: {
      reqPerSec: round(run.requests, 0),
      p50Ms: run.p50,
      p99Ms: run.p99,
      sent: run.sent,
      non2xx: run.non2xx,
      errors: run.errors,
    },
    backlog: {
      events: made,
      drainSeconds: round(drainSeconds),
      notesPerSec: round(made / Math.max(drainSeconds + seconds, 0.001), 0),
    },
    heldIntake: { reqPerSec: round(held.requests, 0), p50Ms: held.p50, p99Ms: held.p99 },
    heldBacklog: {
      events: drained.made,
      drainSeconds: round(drained.seconds, 2),
      notesPerSec: round(drained.made / Math.max(drained.seconds, 0.001), 0),
    },
    intakeToNote: { count: times.length, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) },
  };
}

/**
 * Connects the local Slack as an admin would: the consent URL from Fieldbook (with its xsrf
 * cookie), Slack's redirect back with a code, and Fieldbook's callback.
 */
async function connectSlack(url: string, token: string, workspaceId: string): Promise<void> {
  const res = await fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-fieldbook-workspace': workspaceId,
    },
    body: JSON.stringify({
      query:
        'mutation { startIntegrationAuthorization(pluginId: "slack", source: "bench", origin: "/settings/integrations") }',
    }),
  });
  const { data } = (await res.json()) as { data: { startIntegrationAuthorization: string } };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const consent = await fetch(data.startIntegrationAuthorization, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location')!);
  const back = await fetch(`${url}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie } });
  if (!back.headers.get('location')?.includes('connected=1'))
    throw new Error(`Slack did not connect: ${back.status} ${back.headers.get('location')}`);
}

/**
 * `npx tsx --no-node-snapshot bench/webhooks.ts`: this part alone, on a new database with the
 * local Slack (`BENCH_SECONDS`, `BENCH_WEBHOOK_CONNECTIONS`).
 */
async function main(): Promise<void> {
  const { startFakeSlack } = await import('../plugins/slack/testing/fake-slack.ts');
  const slack = await startFakeSlack({
    clientId: BENCH_SLACK_ENV.SLACK_CLIENT_ID,
    clientSecret: BENCH_SLACK_ENV.SLACK_CLIENT_SECRET,
    channels: [{ id: 'CBENCH', name: 'bench' }],
  });
  try {
    const env = { ...BENCH_SLACK_ENV, SLACK_API_URL: slack.apiUrl, SLACK_AUTHORIZE_URL: slack.authorizeUrl };
    await runAlone(
      'webhooks',
      async ({ fieldbook, url, token, log }) => {
        const created = await graphql<{ createWorkspace: { workspace: { id: string } } }>(
          url,
          'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
          { input: { method: 'AUTH0', teamName: `Webhook bench ${Date.now().toString(36)}` } },
          token,
        );
        const result = await benchWebhooks({
          url,
          owner: fieldbook.db.owner,
          token,
          workspaceId: created.createWorkspace.workspace.id,
          responseUrl: slack.responseUrl(),
          log,
        });
        return [JSON.stringify(result, null, 2)];
      },
      { env },
    );
  } finally {
    await slack.close();
  }
}

if (process.argv[1]?.endsWith('bench/webhooks.ts')) await main();
