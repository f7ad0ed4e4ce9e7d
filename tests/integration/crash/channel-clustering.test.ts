import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineModule } from '../../../core/src/index.ts';
import { subscriberQueue } from '../../../core/src/jobs/events.ts';
import channels from '../../../modules/channels/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { apiToken, createChannel, post } from '../channels/support.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';
import { killHard, spawnWorker, waitFor } from './app-process.ts';

const HEARTBEAT_SECONDS = 10;
/** The advisory lock key of the test's gate. */
const GATE = 7_314_002;

// Subscribes to theme:created, so that each announcement is a job the test can count.
const listener = defineModule({
  name: 'theme-count',
  events: () => [{ event: 'theme:created', name: 'test-theme-count', handler: async () => {} }],
});

const SUBJECTS = ['export times out', 'login with single sign-on fails', 'team plan price', 'mobile app crashes'];

/**
 * A channel's first clustering whose worker is killed mid-run: the run is taken over (or failed,
 * and a new one allowed), so the channel gets its themes, each once, instead of answering "being
 * clustered already" for good.
 */
describe('a channel clustering whose worker dies', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let a: ContentFixture;
  let owner: Knex;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, channels, listener], role: 'web' });
    owner = server.fieldbook.db.owner;
    a = await contentFixture(server, mail, ['CONTRIBUTOR']);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await owner?.raw(
      'drop trigger if exists test_clustering_gate on channel_clusterings; drop function if exists test_clustering_gate()',
    );
    await server?.close();
    await mail?.close();
  });

  it('completes after a restart, and the channel gets its themes once', async () => {
    const channelId = (await createChannel(a.contributor.gql, 'Tickets')).id;
    const token = await apiToken(server, a.contributor.accessToken, a.ws.id);
    const dataPoints = Array.from({ length: 400 }, (_, i) => ({
      externalId: `t-${i}`,
      content: `Ticket ${i}: the ${SUBJECTS[i % SUBJECTS.length]} again for customer ${i % 37}`,
    }));
    expect(
      (await post(server, `/api/channels/${channelId}/datapoints`, JSON.stringify({ dataPoints }), { token })).json,
    ).toMatchObject({ created: 400 });

    const doomed = await spawnWorker(
      server.fieldbook.db.ownerUrl,
      inject('secretKey'),
      HEARTBEAT_SECONDS,
      'channels-worker-process.ts',
    );
    children.push(doomed);
    // A gate the test holds: once the run has started, its next write of the run's row waits at
    // it, so the worker is killed in the middle of the run whatever the machine's speed.
    const gate = await owner.transaction();
    await gate.raw('select pg_advisory_xact_lock(?)', [GATE]);
    await owner.raw(`
      create function test_clustering_gate() returns trigger language plpgsql as $$
      begin
        if old.status = 'RUNNING' then perform pg_advisory_xact_lock(${GATE}); end if;
        return new;
      end $$;
      create trigger test_clustering_gate before update on channel_clusterings for each row execute function test_clustering_gate();`);
    let clusteringId: string;
    try {
      clusteringId = ok(
        await a.contributor.gql<{ clusterChannel: { id: string } }>(
          'mutation($c: ID!) { clusterChannel(channelId: $c, sensitivity: 5, amount: 10) { id } }',
          { c: channelId },
        ),
      ).clusterChannel.id;
      await waitFor(
        'the run to wait at the gate',
        async () =>
          (await owner.raw(`select 1 from pg_locks where not granted and locktype = 'advisory' and objid = ?`, [GATE]))
            .rows.length
            ? true
            : undefined,
        30_000,
      );
      await killHard(doomed);
    } finally {
      await gate.rollback();
      await owner.raw(
        'drop trigger if exists test_clustering_gate on channel_clusterings; drop function if exists test_clustering_gate()',
      );
    }
    expect((await owner('channel_clusterings').where({ id: clusteringId }).first('status')).status).toBe('RUNNING');
    // Its worker gone, the run no longer shows its last percent as running: it is being taken over.
    const state = () =>
      a.contributor
        .gql<{ channelClustering: { id: string; status: string; takingOver: boolean } }>(
          'query($c: ID!) { channelClustering(channelId: $c) { id status takingOver } }',
          { c: channelId },
        )
        .then((res) => ok(res).channelClustering);
    expect(await state()).toMatchObject({ id: clusteringId, status: 'RUNNING', takingOver: false });
    await waitFor(
      'the run to show as being taken over',
      async () => ((await state()).takingOver ? true : undefined),
      45_000,
    );

    children.push(
      await spawnWorker(
        server.fieldbook.db.ownerUrl,
        inject('secretKey'),
        HEARTBEAT_SECONDS,
        'channels-worker-process.ts',
      ),
    );
    const ended = await waitFor(
      'the killed run to be taken over or failed',
      async () => {
        const row = await owner('channel_clusterings').where({ id: clusteringId }).first('status');
        return row.status === 'COMPLETED' || row.status === 'FAILED' ? (row.status as string) : undefined;
      },
      90_000,
    );
    if (ended === 'FAILED') {
      // A failed run lets the channel be clustered again.
      const again = ok(
        await a.contributor.gql<{ clusterChannel: { id: string } }>(
          'mutation($c: ID!) { clusterChannel(channelId: $c, sensitivity: 5, amount: 10) { id } }',
          { c: channelId },
        ),
      ).clusterChannel.id;
      await waitFor(
        'a new run to complete',
        async () =>
          (await owner('channel_clusterings').where({ id: again }).first('status')).status === 'COMPLETED'
            ? true
            : undefined,
        60_000,
      );
    }
    expect((await state()).takingOver).toBe(false);
    const done = await owner('channel_clusterings')
      .where({ channel_id: channelId, status: 'COMPLETED' })
      .first('theme_count', 'point_count');
    expect(done.point_count).toBe(400);
    expect(done.theme_count).toBeGreaterThanOrEqual(2);
    const themes = await owner('channel_themes').where({ channel_id: channelId }).whereNull('retired_at').select('id');
    expect(themes.length).toBe(done.theme_count);
    // Every point has one membership, and each theme was announced once.
    const members = await owner('channel_theme_members')
      .where({ channel_id: channelId })
      .countDistinct({ n: 'datapoint_id' })
      .count({ all: '*' });
    expect(members.map((r) => [Number(r.n), Number(r.all)])).toEqual([[400, 400]]);
    const { rows } = await owner.raw<{ rows: Array<{ n: number }> }>(
      `select count(*)::int as n from pgboss.job where name = ? and data->'payload'->'channel'->>'id' = ?`,
      [subscriberQueue('theme:created', 'test-theme-count'), channelId],
    );
    expect(rows[0]!.n).toBe(themes.length);
    const { rows: busy } = await owner.raw<{ rows: unknown[] }>(
      `select 1 from channel_clusterings where channel_id = ? and status in ('QUEUED', 'RUNNING')`,
      [channelId],
    );
    expect(busy).toEqual([]);
  }, 200_000);
});
