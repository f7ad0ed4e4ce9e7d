import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { EXPORT_QUEUE, IMPORT_QUEUE } from '../../../modules/research/src/transfers/records.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, doc, ok, type Gql } from '../research/content-support.ts';
import { killHard, spawnWorker as spawnWorkerProcess, waitFor } from './app-process.ts';

/** The shortest heartbeat pg-boss allows; production uses DEFAULT_HEARTBEAT_SECONDS. */
const HEARTBEAT_SECONDS = 10;
const TRANSFER = 'id status progress error';
const EXPORT = `mutation($projectId: ID!) { exportProject(projectId: $projectId) { ${TRANSFER} } }`;
const IMPORT = `mutation($input: ImportProjectInput!) { importProject(input: $input) { ${TRANSFER} projectId } }`;
const GET = `query($id: ID!) { projectTransfer(id: $id) { ${TRANSFER} projectId } }`;
const CREATE_NOTE = `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`;

interface Transfer {
  id: string;
  status: string;
  progress: number;
  error: string | null;
  projectId: string | null;
}

/**
 * Exports and imports (one-hour expiry) whose worker is killed with SIGKILL in the middle: the
 * job's heartbeat lapses and another worker takes it over within seconds, not the hour.
 */
describe('transfers whose worker dies', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let admin: Gql;
  let owner: Knex;
  let projectId: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    // This process only serves HTTP: the jobs run in the worker processes below.
    server = await startTestServer({ smtpUrl: mail.url }, { modules: [research], role: 'web' });
    owner = server.fieldbook.db.owner;
    admin = (await contentFixture(server, mail, [])).admin;
    projectId = (await createProject(admin, 'Churn interviews')).id;
    for (const title of ['Call with Ana', 'Call with Ben', 'Call with Chloé']) {
      ok(await admin(CREATE_NOTE, { input: { projectId, title, content: doc(`${title}: pricing confuses people`) } }));
    }
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await server?.close();
    await mail?.close();
  });

  const spawnWorker = async () => {
    const child = await spawnWorkerProcess(server.fieldbook.db.ownerUrl, inject('secretKey'), HEARTBEAT_SECONDS);
    children.push(child);
    return child;
  };

  const transfer = async (id: string) => ok(await admin<{ projectTransfer: Transfer }>(GET, { id })).projectTransfer;

  /**
   * Runs `start` with `table` locked, so the worker stops at its first use of that table with its
   * job running; kills the worker there, then lets a second worker take over. Resolves with the
   * transfer once completed.
   */
  async function killMidway(
    queue: string,
    table: string,
    start: () => Promise<string>,
  ): Promise<{ transfer: Transfer; retryCount: number }> {
    // The worker that took over last time must not take this job instead of the doomed one.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) await killHard(child);
    const lock = await owner.transaction();
    let id: string;
    try {
      await lock.raw(`lock table ${table} in access exclusive mode`);
      const doomed = await spawnWorker();
      id = await start();
      await waitFor(
        'the worker to reach the locked table',
        async () => {
          const { rows } = await owner.raw(`select 1 from pg_locks where not granted and relation = ?::regclass`, [
            table,
          ]);
          return rows.length ? true : undefined;
        },
        30_000,
      );
      expect((await transfer(id)).status).toBe('RUNNING');
      await killHard(doomed);
    } finally {
      await lock.rollback();
    }
    await spawnWorker();
    // The queue's expiry is an hour: only the lapsed heartbeat brings the job back this soon.
    const done = await waitFor(
      'another worker to finish the transfer',
      async () => {
        const t = await transfer(id);
        return t.status === 'COMPLETED' || t.status === 'FAILED' ? t : undefined;
      },
      60_000,
    );
    const { rows } = await owner.raw(`select retry_count from pgboss.job where name = ? and data->>'transferId' = ?`, [
      queue,
      id,
    ]);
    return { transfer: done, retryCount: (rows[0] as { retry_count: number }).retry_count };
  }

  it('an export killed midway is taken over and completes once', async () => {
    const { transfer: done, retryCount } = await killMidway(
      EXPORT_QUEUE,
      'comments',
      async () => ok(await admin<{ exportProject: Transfer }>(EXPORT, { projectId })).exportProject.id,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', progress: 100, error: null });
    expect(retryCount).toBe(1);
    const effects = await owner('job_effects')
      .where({ key: `project-export:${done.id}` })
      .count({ n: '*' });
    expect(effects).toEqual([{ n: 1 }]);
  }, 120_000);

  it('an import killed midway is taken over and makes one project', async () => {
    const exported = await waitFor(
      'a completed export',
      async () => {
        const [row] = await owner('project_transfers').where({ kind: 'EXPORT', status: 'COMPLETED' }).select('id');
        return row as { id: string } | undefined;
      },
      5_000,
    );
    const projectsBefore = Number((await owner('projects').count({ n: '*' }))[0]!.n);
    const { transfer: done, retryCount } = await killMidway(
      IMPORT_QUEUE,
      'notes',
      async () =>
        ok(await admin<{ importProject: Transfer }>(IMPORT, { input: { exportId: exported.id } })).importProject.id,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', progress: 100, error: null });
    expect(retryCount).toBe(1);
    expect(Number((await owner('projects').count({ n: '*' }))[0]!.n)).toBe(projectsBefore + 1);
    const notes = await owner('notes').where({ project_id: done.projectId }).whereNull('deleted_at').count({ n: '*' });
    expect(notes).toEqual([{ n: 3 }]);
  }, 120_000);
});
