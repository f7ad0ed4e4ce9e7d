import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import { CHANNEL_IMPORT_QUEUE } from '../../../modules/channels/src/imports/records.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { createChannel, post } from '../channels/support.ts';
import { contentFixture, type ContentFixture } from '../research/content-support.ts';
import { killHard, spawnWorker, waitFor } from './app-process.ts';

const HEARTBEAT_SECONDS = 10;
const ROWS = 3000;
/** The advisory lock key of the test's gate. */
const GATE = 7_314_001;

/**
 * A CSV import whose worker is killed between batches: another worker takes the job over and
 * resumes after the last batch that committed, so every row is counted and stored once.
 */
describe('a channel import whose worker dies', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let a: ContentFixture;
  let owner: Knex;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, channels], role: 'web' });
    owner = server.fieldbook.db.owner;
    a = await contentFixture(server, mail, []);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await server?.close();
    await mail?.close();
  });

  it('resumes from its last committed batch and stores every row once', async () => {
    const channelId = (await createChannel(a.admin, 'Survey')).id;
    const doomed = await spawnWorker(
      server.fieldbook.db.ownerUrl,
      inject('secretKey'),
      HEARTBEAT_SECONDS,
      'channels-worker-process.ts',
    );
    children.push(doomed);
    const csv = [
      'Answer,Date',
      ...Array.from({ length: ROWS }, (_, i) => `Answer number ${i},2026-06-${String((i % 28) + 1).padStart(2, '0')}`),
    ].join('\n');
    const settings = encodeURIComponent(JSON.stringify({ analyzeColumnLabel: 'Answer', timestampColumnLabel: 'Date' }));

    // A gate the test holds: once a batch of this channel has committed, every batch that starts
    // writing afterwards waits at it. Batches run side by side, so a test that only watched the
    // progress could see the whole file commit before it stepped in.
    const gate = await owner.transaction();
    await gate.raw('select pg_advisory_xact_lock(?)', [GATE]);
    await owner.raw(`
      create function test_import_gate() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from channel_imports where channel_id = new.channel_id and records_read > 0) then
          perform pg_advisory_xact_lock(${GATE});
        end if;
        return new;
      end $$;
      create trigger test_import_gate before insert on channel_datapoints for each row execute function test_import_gate();`);
    let importId: string;
    try {
      const started = await post(server, `/api/channels/${channelId}/imports?settings=${settings}`, csv, {
        token: a.ws.admin.accessToken,
        workspace: a.ws.id,
        type: 'text/csv',
      });
      expect(started.status).toBe(202);
      importId = started.json.importId as string;
      await waitFor(
        'a first batch',
        async () =>
          (await owner('channel_imports').where({ id: importId }).first('records_read')).records_read > 0
            ? true
            : undefined,
        30_000,
      );
      await waitFor(
        'a later batch to wait at the gate',
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
        'drop trigger if exists test_import_gate on channel_datapoints; drop function if exists test_import_gate()',
      );
    }
    // The batches in flight died with the worker: what is stored is exactly what the run counted.
    const atKill = await owner('channel_imports').where({ id: importId }).first('records_read', 'status');
    expect(atKill.status).toBe('RUNNING');
    expect(atKill.records_read).toBeGreaterThan(0);
    expect(atKill.records_read).toBeLessThan(ROWS);
    expect(Number((await owner('channel_datapoints').where({ channel_id: channelId }).count({ n: '*' }))[0]!.n)).toBe(
      atKill.records_read,
    );

    children.push(
      await spawnWorker(
        server.fieldbook.db.ownerUrl,
        inject('secretKey'),
        HEARTBEAT_SECONDS,
        'channels-worker-process.ts',
      ),
    );
    const done = await waitFor(
      'another worker to finish the import',
      async () => {
        const row = await owner('channel_imports').where({ id: importId }).first();
        return row.status === 'COMPLETED' || row.status === 'FAILED' ? row : undefined;
      },
      90_000,
    );
    expect(done).toMatchObject({
      status: 'COMPLETED',
      records_read: ROWS,
      records_created: ROWS,
      records_updated: 0,
      records_failed: 0,
      file: null,
    });
    const stored = await owner('channel_datapoints')
      .where({ channel_id: channelId })
      .countDistinct({ n: 'external_id' })
      .count({ all: '*' });
    expect(stored.map((r) => [Number(r.n), Number(r.all)])).toEqual([[ROWS, ROWS]]);
    const { rows } = await owner.raw(`select retry_count from pgboss.job where name = ? and data->>'importId' = ?`, [
      CHANNEL_IMPORT_QUEUE,
      importId,
    ]);
    expect((rows[0] as { retry_count: number }).retry_count).toBe(1);
  }, 150_000);
});
