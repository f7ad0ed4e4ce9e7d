import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { withTenant } from '../../../core/src/db/tenancy.ts';
import type { ModuleContext } from '../../../core/src/kernel/module.ts';
import { DATA_RETENTION_QUEUE } from '../../../modules/research/src/retention/apply.ts';
import {
  DATA_RETENTION_CRON,
  DATA_RETENTION_SWEEP_QUEUE,
  dataRetentionJob,
  dataRetentionSweepJob,
} from '../../../modules/research/src/retention/job.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../../support/factories.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
  type Gql,
} from './content-support.ts';

const SETTING =
  '{ dataRetention { retentionDays options warningDays trashDays latestWarning { noteCount insightCount deleteAfter } } }';
const UPDATE =
  'mutation($d: Int) { updateDataRetention(retentionDays: $d) { retentionDays latestWarning { noteCount } } }';
const NOTIFICATIONS = '{ notifications(first: 50) { type payload } }';
const DAY = 24 * 60 * 60 * 1000;

interface Notification {
  type: string;
  payload: { retentionDays: number; deleteAfter: string; noteCount: number; insightCount: number };
}

describe('data retention', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const db = () => server.fieldbook.db.app;
  const inWorkspace = <T>(workspaceId: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(db(), { workspaceId }, fn);
  const backdate = (
    workspaceId: string,
    table: string,
    id: string,
    column: 'created_at' | 'deleted_at',
    daysAgo: number,
    from = new Date(),
  ) =>
    inWorkspace(workspaceId, (trx) =>
      trx(table)
        .where({ id })
        .update({ [column]: new Date(from.getTime() - daysAgo * DAY) }),
    );
  const exists = (workspaceId: string, table: string, id: string) =>
    inWorkspace(workspaceId, async (trx) => Boolean(await trx(table).where({ id }).first('id')));
  const count = (workspaceId: string, table: string, where: Record<string, unknown>) =>
    inWorkspace(workspaceId, async (trx) =>
      Number(((await trx(table).where(where).count('* as c').first()) as { c: number }).c),
    );
  const run = (workspaceId: string, at: Date) =>
    dataRetentionJob({ db: server.fieldbook.db } as Pick<ModuleContext, 'db'>, () => at).handler({
      id: `test-${at.getTime()}`,
      queue: DATA_RETENTION_QUEUE,
      data: { workspaceId },
      retryCount: 0,
    });
  const warnings = async (gql: Gql) =>
    ok(await gql<{ notifications: Notification[] }>(NOTIFICATIONS)).notifications.filter(
      (n) => n.type === 'data_retention_deletion_warning',
    );
  const note = async (gql: Gql, projectId: string, title: string) =>
    ok(
      await gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $t: String, $c: JSON) { createNote(input: { projectId: $p, title: $t, content: $c }) { id } }',
        { p: projectId, t: title, c: doc('Pricing was confusing') },
      ),
    ).createNote.id;
  const insight = async (gql: Gql, projectId: string, title: string) =>
    ok(
      await gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!, $t: String) { createInsight(input: { projectId: $p, title: $t }) { id } }',
        { p: projectId, t: title },
      ),
    ).createInsight.id;

  it('is a workspace admin setting of 30, 60, 90, 180 or 365 days, or off', async () => {
    expect(ok(await f.admin<{ dataRetention: unknown }>(SETTING)).dataRetention).toEqual({
      retentionDays: null,
      options: [30, 60, 90, 180, 365],
      warningDays: 7,
      trashDays: 30,
      latestWarning: null,
    });
    for (const member of [f.manager, f.contributor, f.viewer]) {
      expect(failure(await member.gql(UPDATE, { d: 30 })).extensions?.errorCode).toBe('FORBIDDEN');
      expect(failure(await member.gql(SETTING)).extensions?.errorCode).toBe('FORBIDDEN');
    }
    const bad = failure(await f.admin(UPDATE, { d: 45 }));
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'retentionDays' });
    expect(bad.message).toContain('30, 60, 90, 180, 365');
    expect(
      ok(await f.admin<{ dataRetention: { retentionDays: null } }>(SETTING)).dataRetention.retentionDays,
    ).toBeNull();
    expect(
      ok(await f.admin<{ updateDataRetention: { retentionDays: number } }>(UPDATE, { d: 365 })).updateDataRetention
        .retentionDays,
    ).toBe(365);
    expect(
      ok(await f.admin<{ updateDataRetention: { retentionDays: null } }>(UPDATE, { d: null })).updateDataRetention
        .retentionDays,
    ).toBeNull();
  });

  it('warns the admins first, deletes for good 7 days later, and leaves other workspaces alone', async () => {
    const project = (await createProject(f.admin, 'Interviews 2023')).id;
    const oldNote = await note(f.admin, project, 'Old interview');
    const oldInsight = await insight(f.admin, project, 'Old insight');
    const midNote = await note(f.admin, project, 'Nearly due');
    const youngNote = await note(f.admin, project, 'Fresh interview');
    const highlight = ok(
      await f.admin<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 7 }) { id } }',
        { n: oldNote },
      ),
    ).createHighlight.id;
    ok(await f.admin('mutation($id: ID!) { setStarred(type: NOTE, id: $id, starred: true) }', { id: oldNote }));
    ok(
      await f.admin(
        'mutation($n: ID!) { createComment(input: { objectType: NOTE, objectId: $n, body: "Still true?" }) { id } }',
        { n: oldNote },
      ),
    );

    // Another workspace, without retention, with data just as old.
    const other: WorkspaceFixture = await createWorkspaceWithAdmin(server, mail);
    const otherAdmin = gqlAs(server, other.admin.accessToken, other.id);
    const otherProject = (await createProject(otherAdmin, 'Elsewhere')).id;
    const otherOld = await note(otherAdmin, otherProject, 'Old but kept');

    const t0 = new Date();
    await backdate(f.ws.id, 'notes', oldNote, 'created_at', 100, t0);
    await backdate(f.ws.id, 'insights', oldInsight, 'created_at', 100, t0);
    await backdate(f.ws.id, 'notes', midNote, 'created_at', 25, t0);
    await backdate(other.id, 'notes', otherOld, 'created_at', 100, t0);
    ok(await f.admin(UPDATE, { d: 30 }));

    // Day 0: everything within 7 days of the end of the period is announced; nothing is deleted.
    await run(f.ws.id, t0);
    let sent = await warnings(f.admin);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload).toMatchObject({
      retentionDays: 30,
      noteCount: 2,
      insightCount: 1,
      deleteAfter: new Date(t0.getTime() + 7 * DAY).toISOString(),
    });
    expect(await warnings(f.manager.gql)).toHaveLength(0);
    expect(
      ok(await f.admin<{ dataRetention: { latestWarning: unknown } }>(SETTING)).dataRetention.latestWarning,
    ).toMatchObject({ noteCount: 2, insightCount: 1 });
    for (const id of [oldNote, midNote, youngNote]) expect(await exists(f.ws.id, 'notes', id)).toBe(true);
    expect(await exists(f.ws.id, 'insights', oldInsight)).toBe(true);

    // Running again changes nothing more: no second warning, no deletion.
    await run(f.ws.id, t0);
    await run(f.ws.id, new Date(t0.getTime() + DAY));
    expect(await warnings(f.admin)).toHaveLength(1);
    expect(await exists(f.ws.id, 'notes', oldNote)).toBe(true);

    // Day 7: the announced notes and insight go, with their highlights, comments and stars.
    const day7 = new Date(t0.getTime() + 7 * DAY);
    await run(f.ws.id, day7);
    expect(await exists(f.ws.id, 'notes', oldNote)).toBe(false);
    expect(await exists(f.ws.id, 'notes', midNote)).toBe(false);
    expect(await exists(f.ws.id, 'insights', oldInsight)).toBe(false);
    expect(await exists(f.ws.id, 'highlights', highlight)).toBe(false);
    expect(await count(f.ws.id, 'comments', { note_id: oldNote })).toBe(0);
    expect(await count(f.ws.id, 'stars', { object_id: oldNote })).toBe(0);
    expect(await exists(f.ws.id, 'notes', youngNote)).toBe(true);
    expect(await count(f.ws.id, 'audit_log', { subject_type: 'dataRetention', actor_user_id: null })).toBe(1);
    await run(f.ws.id, day7);
    expect(await exists(f.ws.id, 'notes', youngNote)).toBe(true);
    expect(await count(f.ws.id, 'audit_log', { subject_type: 'dataRetention', actor_user_id: null })).toBe(1);

    // The other workspace was never touched.
    expect(await exists(other.id, 'notes', otherOld)).toBe(true);
    expect((await warnings(otherAdmin)).length).toBe(0);

    // The young note: past the period at day 30, but deleted only once its warning is 7 days old.
    await run(f.ws.id, new Date(t0.getTime() + 23 * DAY + 60_000));
    sent = await warnings(f.admin);
    expect(sent).toHaveLength(2);
    expect(sent.map((n) => n.payload.noteCount).sort()).toEqual([1, 2]);
    await run(f.ws.id, new Date(t0.getTime() + 30 * DAY));
    expect(await exists(f.ws.id, 'notes', youngNote)).toBe(true);
    await run(f.ws.id, new Date(t0.getTime() + 30 * DAY + 60_000));
    expect(await exists(f.ws.id, 'notes', youngNote)).toBe(false);

    // With no retention period, the other workspace's old note outlives any run.
    await run(other.id, new Date(t0.getTime() + 400 * DAY));
    expect(await exists(other.id, 'notes', otherOld)).toBe(true);
  });

  it('deletes for good what has been in the trash longer than 30 days, in any workspace', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const admin = gqlAs(server, ws.admin.accessToken, ws.id);
    const project = (await createProject(admin, 'Trash test')).id;
    const gone = await note(admin, project, 'Long in the trash');
    const recent = await note(admin, project, 'Recently trashed');
    const trashedProject = (await createProject(admin, 'Old project')).id;
    const inTrashedProject = await note(admin, trashedProject, 'Inside the old project');
    for (const id of [gone, recent]) ok(await admin('mutation($id: ID!) { deleteNote(id: $id) }', { id }));
    ok(await admin('mutation($id: ID!) { deleteProject(id: $id) }', { id: trashedProject }));
    const now = new Date();
    await backdate(ws.id, 'notes', gone, 'deleted_at', 31, now);
    await backdate(ws.id, 'notes', recent, 'deleted_at', 29, now);
    await backdate(ws.id, 'projects', trashedProject, 'deleted_at', 45, now);

    await run(ws.id, now);
    expect(await exists(ws.id, 'notes', gone)).toBe(false);
    expect(await exists(ws.id, 'notes', recent)).toBe(true);
    expect(await exists(ws.id, 'projects', trashedProject)).toBe(false);
    expect(await exists(ws.id, 'notes', inTrashedProject)).toBe(false);
    expect(await exists(ws.id, 'projects', project)).toBe(true);
    // No retention period here, so no warnings.
    expect(await warnings(admin)).toHaveLength(0);
  });

  it('deletes for good the people in the trash longer than 30 days, with their links and field values', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const admin = gqlAs(server, ws.admin.accessToken, ws.id);
    const project = (await createProject(admin, 'Contacts')).id;
    const interview = await note(admin, project, 'Interview');
    const highlight = ok(
      await admin<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 7 }) { id } }',
        { n: interview },
      ),
    ).createHighlight.id;
    const role = ok(
      await admin<{ createField: { id: string } }>(
        'mutation { createField(input: { objectType: PERSON, type: TEXT, label: "Role" }) { id } }',
      ),
    ).createField.id;
    const person = async (name: string) => {
      const id = ok(
        await admin<{ createPerson: { id: string } }>(
          'mutation($n: String!) { createPerson(input: { name: $n }) { id } }',
          { n: name },
        ),
      ).createPerson.id;
      ok(
        await admin('mutation($n: ID!, $p: ID!) { addPersonToNote(noteId: $n, personId: $p) { id } }', {
          n: interview,
          p: id,
        }),
      );
      ok(
        await admin('mutation($h: ID!, $p: ID!) { addPersonToHighlight(highlightId: $h, personId: $p) { id } }', {
          h: highlight,
          p: id,
        }),
      );
      ok(
        await admin(
          'mutation($o: ID!, $f: ID!) { setFieldValue(objectType: PERSON, objectId: $o, fieldId: $f, value: "Buyer") { value } }',
          { o: id, f: role },
        ),
      );
      ok(await admin('mutation($id: ID!) { deletePerson(id: $id) }', { id }));
      return id;
    };
    const old = await person('Long gone');
    const recent = await person('Recently trashed');
    const now = new Date();
    await backdate(ws.id, 'people', old, 'deleted_at', 31, now);
    await backdate(ws.id, 'people', recent, 'deleted_at', 29, now);

    await run(ws.id, now);
    expect(await exists(ws.id, 'people', old)).toBe(false);
    expect(await count(ws.id, 'note_people', { person_id: old })).toBe(0);
    expect(await count(ws.id, 'highlight_people', { person_id: old })).toBe(0);
    expect(await count(ws.id, 'field_values', { object_type: 'PERSON', object_id: old })).toBe(0);
    // Still restorable: in the trash for less than 30 days, links and values kept.
    expect(await exists(ws.id, 'people', recent)).toBe(true);
    expect(await count(ws.id, 'note_people', { person_id: recent })).toBe(1);
    expect(await count(ws.id, 'highlight_people', { person_id: recent })).toBe(1);
    expect(await count(ws.id, 'field_values', { object_type: 'PERSON', object_id: recent })).toBe(1);
    expect(await exists(ws.id, 'notes', interview)).toBe(true);
    expect(await exists(ws.id, 'highlights', highlight)).toBe(true);
  });

  it('withdraws earlier warnings when the period changes', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const admin = gqlAs(server, ws.admin.accessToken, ws.id);
    const project = (await createProject(admin, 'Changing minds')).id;
    const old = await note(admin, project, 'Old');
    const now = new Date();
    await backdate(ws.id, 'notes', old, 'created_at', 200, now);
    ok(await admin(UPDATE, { d: 60 }));
    await run(ws.id, now);
    expect(
      ok(await admin<{ dataRetention: { latestWarning: unknown } }>(SETTING)).dataRetention.latestWarning,
    ).toMatchObject({ noteCount: 1 });

    // Switched to a year: the 60-day warning no longer holds, so its date passing deletes nothing.
    expect(
      ok(await admin<{ updateDataRetention: { latestWarning: unknown } }>(UPDATE, { d: 365 })).updateDataRetention
        .latestWarning,
    ).toBeNull();
    await run(ws.id, new Date(now.getTime() + 7 * DAY));
    expect(await exists(ws.id, 'notes', old)).toBe(true);
    // The new period announces afresh and deletes 7 days after that.
    await run(ws.id, new Date(now.getTime() + 170 * DAY));
    expect(await exists(ws.id, 'notes', old)).toBe(true);
    await run(ws.id, new Date(now.getTime() + 177 * DAY));
    expect(await exists(ws.id, 'notes', old)).toBe(false);
  });

  it('runs daily: the sweep is scheduled and queues one run per workspace, which the worker applies', async () => {
    const schedules = await server.fieldbook.jobs.boss.getSchedules(DATA_RETENTION_SWEEP_QUEUE);
    expect(schedules).toEqual([
      expect.objectContaining({ name: DATA_RETENTION_SWEEP_QUEUE, cron: DATA_RETENTION_CRON, timezone: 'UTC' }),
    ]);

    const ws = await createWorkspaceWithAdmin(server, mail);
    const admin = gqlAs(server, ws.admin.accessToken, ws.id);
    const project = (await createProject(admin, 'Swept')).id;
    const trashed = await note(admin, project, 'Trashed long ago');
    ok(await admin('mutation($id: ID!) { deleteNote(id: $id) }', { id: trashed }));
    await backdate(ws.id, 'notes', trashed, 'deleted_at', 40);

    const ctx = { db: server.fieldbook.db, jobs: server.fieldbook.jobs.queue } as unknown as ModuleContext;
    await dataRetentionSweepJob(ctx).handler({
      id: 'sweep',
      queue: DATA_RETENTION_SWEEP_QUEUE,
      data: {},
      retryCount: 0,
    });
    await expect.poll(() => exists(ws.id, 'notes', trashed), { timeout: 20_000, interval: 250 }).toBe(false);
  });
});
