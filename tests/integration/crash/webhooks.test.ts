import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../core/src/config.ts';
import { WEBHOOK_QUEUE } from '../../../core/src/extensions/webhooks/intake.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, ok, type Gql } from '../research/content-support.ts';
import { killHard, spawnWorker, waitFor } from './app-process.ts';
import { RELAY_SECRET, relayPlugin, signRelay } from './relay-plugin.ts';

const HEARTBEAT_SECONDS = 10;
const DELIVERIES = 20;

/**
 * Webhook deliveries already answered 200, whose worker is killed with SIGKILL while it turns
 * them into notes: another worker takes them over within seconds (their expiry is 15 minutes),
 * and each becomes exactly one note.
 */
describe('webhook deliveries whose worker dies', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let admin: Gql;
  let owner: Knex;
  let projectId: string;
  let account: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    const base = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' });
    // This process only receives the deliveries: the jobs run in the worker processes below.
    server = await startTestServer(
      { smtpUrl: mail.url, plugins: { ...base.plugins, env: { CRASH_RELAY_SECRET: RELAY_SECRET } } },
      { modules: [research], plugins: [relayPlugin], discoverPlugins: false, role: 'web' },
    );
    owner = server.fieldbook.db.owner;
    admin = (await contentFixture(server, mail, [])).admin;
    projectId = (await createProject(admin, 'Relayed messages')).id;
    ok(
      await admin('mutation($p: ID!, $s: [PluginSettingInput!]) { installPlugin(pluginId: $p, settings: $s) { id } }', {
        p: 'crash-relay',
        s: [{ key: 'projectId', text: projectId }],
      }),
    );
    ok(
      await admin(
        'mutation($pr: ID!, $p: ID!) { setProjectPluginEnabled(projectId: $pr, pluginId: $p, enabled: true) { enabled } }',
        { pr: projectId, p: 'crash-relay' },
      ),
    );
    const plugins = ok(
      await admin<{ plugins: Array<{ id: string; installation: { id: string } | null }> }>(
        '{ plugins { id installation { id } } }',
      ),
    ).plugins;
    account = plugins.find((p) => p.id === 'crash-relay')!.installation!.id;
  });
  afterAll(async () => {
    for (const child of children) await killHard(child);
    await server?.close();
    await mail?.close();
  });

  const start = async () => {
    const child = await spawnWorker(server.fieldbook.db.ownerUrl, inject('secretKey'), HEARTBEAT_SECONDS);
    children.push(child);
    return child;
  };
  const notes = async () => Number((await owner('notes').where({ project_id: projectId }).count({ n: '*' }))[0]!.n);

  it('turns every delivery into one note after the worker handling them was killed', { timeout: 180_000 }, async () => {
    // With notes locked, the worker stops at its first note, its deliveries in hand.
    const lock = await owner.transaction();
    try {
      await lock.raw('lock table notes in access exclusive mode');
      const doomed = await start();
      for (let i = 0; i < DELIVERIES; i++) {
        const body = JSON.stringify({ id: `m-${i}`, account, text: `Message ${i}` });
        const res = await fetch(`${server.url}/crash-relay/webhook`, {
          method: 'POST',
          headers: signRelay(body),
          body,
        });
        expect(res.status).toBe(200);
      }
      await waitFor(
        'the worker to reach the locked notes',
        async () => {
          const { rows } = await owner.raw(`select 1 from pg_locks where not granted and relation = 'notes'::regclass`);
          return rows.length ? true : undefined;
        },
        30_000,
      );
      await killHard(doomed);
    } finally {
      await lock.rollback();
    }
    expect(await notes()).toBe(0);

    await start();
    // The queue's expiry is 15 minutes: only the lapsed heartbeats bring the jobs back this soon.
    await waitFor(
      'every delivery to become a note',
      async () => ((await notes()) === DELIVERIES ? true : undefined),
      90_000,
    );
    await waitFor(
      'every job to complete',
      async () => {
        // A job names the deliveries of one commit: as many jobs as commits, each completed.
        const { rows } = await owner.raw(
          `select count(*) filter (where state <> 'completed')::int as open, count(*)::int as n from pgboss.job where name = ?`,
          [WEBHOOK_QUEUE],
        );
        const { open, n } = rows[0] as { open: number; n: number };
        return n > 0 && open === 0 ? true : undefined;
      },
      30_000,
    );
    const { rows } = await owner.raw(`select max(retry_count)::int as retried from pgboss.job where name = ?`, [
      WEBHOOK_QUEUE,
    ]);
    expect((rows[0] as { retried: number }).retried).toBeGreaterThanOrEqual(1);
    expect(await notes()).toBe(DELIVERIES);
    // The worker had them as one batch, handled together: each became its own note, once, and
    // every delivery is marked handled.
    const titles = await owner('notes').where({ project_id: projectId }).pluck('title');
    expect(new Set(titles).size).toBe(DELIVERIES);
    // Made in batches: notes committed together share their transaction id.
    const { rows: commits } = await owner.raw(
      `select count(distinct xmin::text)::int as n from notes where project_id = ?`,
      [projectId],
    );
    expect((commits[0] as { n: number }).n).toBeLessThan(DELIVERIES / 2);
    const { rows: waiting } = await owner.raw(
      `select count(*)::int as n from plugin_webhook_events where plugin_id = 'crash-relay' and handled_at is null`,
    );
    expect((waiting[0] as { n: number }).n).toBe(0);
  });

  it('fails a delivery of a batch alone: the others become notes, it is retried by itself', {
    timeout: 60_000,
  }, async () => {
    // A project the plugin is not enabled on: a note there is refused, which fails the batch's
    // transaction; each delivery is then handled alone and only that one fails.
    const elsewhere = (await createProject(admin, 'Not for relayed messages')).id;
    const bodies = Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({ id: `alone-${i}`, account, text: `Alone ${i}`, ...(i === 3 ? { projectId: elsewhere } : {}) }),
    );
    // Sent at once, so that they share commits, jobs and a batch.
    await Promise.all(
      bodies.map(async (body) =>
        expect(
          (await fetch(`${server.url}/crash-relay/webhook`, { method: 'POST', headers: signRelay(body), body })).status,
        ).toBe(200),
      ),
    );
    const titles = async () =>
      (await owner('notes').where({ project_id: projectId }).whereLike('title', 'Alone %').pluck('title')).sort();
    await waitFor(
      'the other deliveries to become notes',
      async () => ((await titles()).length === 5 ? true : undefined),
      30_000,
    );
    const failing = async () =>
      (
        await owner.raw(
          `select e.handled_at, j.state, j.retry_count from plugin_webhook_events e join pgboss.job j on j.name = ? and (j.data->'eventRowIds') @> to_jsonb(e.id) where e.event_id = 'alone-3'`,
          [WEBHOOK_QUEUE],
        )
      ).rows as Array<{ handled_at: Date | null; state: string; retry_count: number }>;
    await waitFor(
      'its job to be retried',
      async () => ((await failing()).some((j) => j.retry_count >= 1) ? true : undefined),
      30_000,
    );
    expect(await titles()).toEqual(['Alone 0', 'Alone 1', 'Alone 2', 'Alone 4', 'Alone 5']);
    expect((await failing()).every((j) => j.handled_at === null)).toBe(true);
    expect(Number((await owner('notes').where({ project_id: elsewhere }).count({ n: '*' }))[0]!.n)).toBe(0);
    const { rows } = await owner.raw(
      `select count(*)::int as n from plugin_webhook_events where event_id like 'alone-%' and handled_at is not null`,
    );
    expect((rows[0] as { n: number }).n).toBe(5);
  });
});
