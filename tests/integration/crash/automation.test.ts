import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import automation from '../../../modules/automation/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, ok, type Gql } from '../research/content-support.ts';
import { killHard, spawnWorker, waitFor } from './app-process.ts';

const HEARTBEAT_SECONDS = 10;

/**
 * An automation with three actions whose worker is killed with SIGKILL after the first action
 * and inside the second: after another worker takes the run over, each action has happened
 * exactly once (the first is not redone, the second's half-done work was never committed).
 */
describe('an automation run whose worker dies', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let admin: Gql;
  let owner: Knex;
  let workspaceId: string;
  const targets: string[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer(
      { smtpUrl: mail.url },
      { modules: [research, automation], discoverPlugins: false, role: 'web' },
    );
    owner = server.fieldbook.db.owner;
    const f = await contentFixture(server, mail, []);
    admin = f.admin;
    workspaceId = f.ws.id;
  }, 120_000);
  afterAll(async () => {
    for (const child of children) await killHard(child);
    await server?.close();
    await mail?.close();
  });

  const start = async () => {
    const child = await spawnWorker(
      server.fieldbook.db.ownerUrl,
      inject('secretKey'),
      HEARTBEAT_SECONDS,
      'automation-worker.ts',
    );
    children.push(child);
    return child;
  };

  it('runs each of three actions exactly once after the worker was killed mid-run', { timeout: 180_000 }, async () => {
    const source = (await createProject(admin, 'Interviews')).id;
    for (const title of ['Step one', 'Step two', 'Step three']) targets.push((await createProject(admin, title)).id);
    const created = ok(
      await admin<{ createAutomation: { id: string } }>(
        'mutation($input: AutomationInput!) { createAutomation(input: $input) { id } }',
        {
          input: {
            title: 'Three steps',
            trigger: { type: 'Event', eventKey: 'note:created', configure: { 'project.id': source } },
            actions: targets.map((projectId, i) => ({
              actionType: 'createNote',
              parameters: { projectId, title: `Step ${i + 1} for {{note.title}}` },
              executionOrder: i + 1,
            })),
          },
        },
      ),
    ).createAutomation;

    // The second action's note list is held: the worker stops inside it, the first action done.
    const lock = await owner.transaction();
    try {
      await lock.raw('select pg_advisory_xact_lock(hashtext(?))', [
        `notes:workspace_id=${workspaceId},project_id=${targets[1]}`,
      ]);
      const doomed = await start();
      ok(
        await admin('mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }', {
          input: { projectId: source, title: 'Interview with Kim' },
        }),
      );
      await waitFor(
        'the worker to wait inside the second action',
        async () => {
          const { rows } = await owner.raw(`select 1 from pg_locks where locktype = 'advisory' and not granted`);
          return rows.length ? true : undefined;
        },
        60_000,
      );
      await killHard(doomed);
    } finally {
      await lock.rollback();
    }
    const count = async (projectId: string) =>
      Number((await owner('notes').where({ project_id: projectId }).count({ n: '*' }))[0]!.n);
    expect([await count(targets[0]!), await count(targets[1]!), await count(targets[2]!)]).toEqual([1, 0, 0]);

    await start();
    const run = await waitFor(
      'the run to finish',
      async () => {
        const r = await owner('automation_runs').where({ automation_id: created.id }).first();
        return r && (r.status === 'succeeded' || r.status === 'failed') ? r : undefined;
      },
      90_000,
    );
    expect(run.status).toBe('succeeded');
    for (const [i, projectId] of targets.entries()) {
      const notes = await owner('notes').where({ project_id: projectId }).select('title');
      expect(notes.map((n: { title: string }) => n.title)).toEqual([`Step ${i + 1} for Interview with Kim`]);
    }
    const actions = await owner('automation_run_actions').where({ run_id: run.id }).orderBy('position');
    expect(actions.map((a: { status: string; attempts: number }) => [a.status, a.attempts])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
    const { rows } = await owner.raw(
      `select max(retry_count)::int as retried from pgboss.job where name = 'automation.run'`,
    );
    expect((rows[0] as { retried: number }).retried).toBeGreaterThanOrEqual(1);
  });
});
