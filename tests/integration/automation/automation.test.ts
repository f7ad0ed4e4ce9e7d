import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import research from '../../../modules/research/src/index.ts';
import channels from '../../../modules/channels/src/index.ts';
import { createAutomationModule, type AutomationServices } from '../../../modules/automation/src/index.ts';
import { addMember, gqlAs } from '../../support/factories.ts';
import { subscriberQueue } from '../../../core/src/jobs/events.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  failure,
  ok,
  type ContentFixture,
  type Gql,
} from '../research/content-support.ts';
import { AUTOMATION, CREATE, finishedRun, noteTrigger, probePlugin, runsOf, waitFor } from './support.ts';

const automation = createAutomationModule({ actionTimeoutMs: 1500, retryLimit: 1, retryDelaySeconds: 1 });

describe('automations', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let owner: Knex;
  let projectId: string;
  let otherProjectId: string;
  let tagId: string;

  const createNote = async (gql: Gql, title: string, project = projectId) =>
    ok(
      await gql<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId: project, title } },
      ),
    ).createNote.id;
  const create = async (gql: Gql, input: Record<string, unknown>) =>
    ok(await gql<{ createAutomation: { id: string } }>(CREATE, { input })).createAutomation;
  const createError = async (gql: Gql, input: Record<string, unknown>) => failure(await gql(CREATE, { input }));
  const tagAction = (order = 1) => ({ actionType: 'addTag', parameters: { tagIds: [tagId] }, executionOrder: order });

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer(
      { smtpUrl: mail.url },
      { modules: [research, channels, automation], plugins: [probePlugin], discoverPlugins: false },
    );
    owner = server.fieldbook.db.owner;
    f = await contentFixture(server, mail, ['MANAGER', 'CONTRIBUTOR']);
    projectId = (await createProject(f.admin, 'Onboarding research')).id;
    otherProjectId = (await createProject(f.admin, 'Pricing')).id;
    const board = ok(
      await f.admin<{ createTagBoard: { id: string } }>(
        'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
        { input: { title: 'Topics', projectId } },
      ),
    ).createTagBoard;
    tagId = ok(
      await f.admin<{ createTag: { id: string } }>(
        'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
        { input: { boardId: board.id, title: 'Interview' } },
      ),
    ).createTag.id;
    ok(await f.admin('mutation { installPlugin(pluginId: "probe") { id } }'));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  describe('when saved', () => {
    const base = () => ({ title: 'Tag interviews', trigger: noteTrigger(projectId), actions: [tagAction()] });

    it('limits the title to 255 characters, naming the field and the limit', async () => {
      const e = await createError(f.admin, { ...base(), title: 'x'.repeat(256) });
      expect(e.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'title' });
      expect(e.message).toContain('255');
      await create(f.admin, { ...base(), title: 'x'.repeat(255) });
    });

    it('refuses unknown events and answers with the catalogue’s texts for bad rules', async () => {
      expect(
        (await createError(f.admin, { ...base(), trigger: { type: 'Event', eventKey: 'note:deleted' } })).message,
      ).toBe('Event not found: note:deleted');
      const rules = async (r: unknown) => createError(f.admin, { ...base(), trigger: noteTrigger(projectId, r) });
      expect((await rules({ combinator: 'NAND', conditions: [] })).message).toBe('Invalid rules structure');
      expect((await rules({ combinator: 'AND', conditions: [] })).message).toBe(
        'Cannot build rules without any conditions',
      );
      expect(
        (await rules({ combinator: 'AND', conditions: [{ field: 'note.title', operator: 'greaterThan', value: 2 }] }))
          .message,
      ).toBe('Invalid operator greaterThan for field type string');
      const e = await rules({ combinator: 'AND', conditions: [{ field: 'note.body', operator: 'equal', value: 'x' }] });
      expect(e.message).toBe('Failed to create condition: unknown field note.body');
      expect(e.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'trigger.rules' });
    });

    it('checks every action’s parameters and ids, and what its trigger offers', async () => {
      const action = async (a: Record<string, unknown>, trigger: Record<string, unknown> = noteTrigger(projectId)) =>
        createError(f.admin, { ...base(), trigger, actions: [a] });
      expect(
        (await action({ actionType: 'addTag', parameters: { tagIds: [] }, executionOrder: 1 })).extensions,
      ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'actions.0.parameters.tagIds' });
      expect(
        (
          await action({
            actionType: 'addTag',
            parameters: { tagIds: ['7b0a4c9e-1f0e-4a55-9a43-6f1d9a7a0001'] },
            executionOrder: 1,
          })
        ).extensions,
      ).toMatchObject({ errorCode: 'NOT_FOUND' });
      expect((await action(tagAction(), { type: 'Event', eventKey: 'project:created' })).message).toContain(
        'needs an event about a note',
      );
      expect(
        (
          await action({
            actionType: 'invokeAgent',
            parameters: { agentId: 'a1', prompt: 'Summarise' },
            executionOrder: 1,
          })
        ).message,
      ).toBe('AI agents are not available in this workspace.');
      expect(
        (await action({ actionType: 'probe', parameters: { mode: 'ok', text: 'x'.repeat(41) }, executionOrder: 1 }))
          .extensions,
      ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'actions.0.parameters.text' });
      expect(
        (
          await action({
            actionType: 'createNote',
            parameters: { projectId: '7b0a4c9e-1f0e-4a55-9a43-6f1d9a7a0001', title: 'x' },
            executionOrder: 1,
          })
        ).extensions,
      ).toMatchObject({ errorCode: 'NOT_FOUND' });
      expect((await action({ actionType: 'sendSmoke', parameters: {}, executionOrder: 1 })).message).toContain(
        'There is no action sendSmoke',
      );
      // The channels module checks channel ids: one that names no channel is not found.
      const channel = {
        type: 'Event',
        eventKey: 'Channel',
        configure: { 'channel.id': '7b0a4c9e-1f0e-4a55-9a43-6f1d9a7a0001' },
      };
      expect(
        (await action({ actionType: 'probe', parameters: { mode: 'ok', text: 'x' }, executionOrder: 1 }, channel))
          .extensions?.errorCode,
      ).toBe('NOT_FOUND');
    });

    it('refuses another workspace’s project and tag as not found', async () => {
      const other = await contentFixture(server, mail, []);
      const theirs = (await createProject(other.admin, 'Theirs')).id;
      const board = ok(
        await other.admin<{ createTagBoard: { id: string } }>(
          'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
          { input: { title: 'Theirs' } },
        ),
      ).createTagBoard;
      const tag = ok(
        await other.admin<{ createTag: { id: string } }>(
          'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
          { input: { boardId: board.id, title: 'Theirs' } },
        ),
      ).createTag.id;
      expect((await createError(f.admin, { ...base(), trigger: noteTrigger(theirs) })).extensions?.errorCode).toBe(
        'NOT_FOUND',
      );
      expect(
        (
          await createError(f.admin, {
            ...base(),
            actions: [{ actionType: 'addTag', parameters: { tagIds: [tag] }, executionOrder: 1 }],
          })
        ).extensions,
      ).toMatchObject({ errorCode: 'NOT_FOUND', field: 'actions.0.parameters' });
      expect(
        (
          await createError(f.admin, {
            ...base(),
            actions: [{ actionType: 'createNote', parameters: { projectId: theirs, title: 'x' }, executionOrder: 1 }],
          })
        ).extensions?.errorCode,
      ).toBe('NOT_FOUND');
    });

    it('lets managers of a project automate its events and only admins automate workspace-wide ones', async () => {
      expect((await createError(f.contributor.gql, base())).extensions?.errorCode).toBe('FORBIDDEN');
      const managed = await create(f.manager.gql, base());
      // The screens offer editing and Run now from viewerCanEdit: the same rule, answered per person.
      const canEdit = async (gql: Gql) =>
        ok(
          await gql<{ automation: { viewerCanEdit: boolean } }>(
            'query($id: ID!) { automation(id: $id) { viewerCanEdit } }',
            { id: managed.id },
          ),
        ).automation.viewerCanEdit;
      expect(await canEdit(f.manager.gql)).toBe(true);
      expect(await canEdit(f.contributor.gql)).toBe(false);
      const wide = {
        ...base(),
        trigger: { type: 'Event', eventKey: 'project:created' },
        actions: [
          {
            actionType: 'notifyPeople',
            parameters: { userIds: [f.manager.user.id], message: 'New project {{title}}' },
            executionOrder: 1,
          },
        ],
      };
      expect((await createError(f.manager.gql, wide)).extensions?.errorCode).toBe('FORBIDDEN');
      await create(f.admin, wide);
    });

    it('offers composites with the configure fields common to their events, and each field’s operators', async () => {
      const { automationEvents } = ok(
        await f.admin<{
          automationEvents: Array<{
            key: string;
            configure: string[];
            events: string[];
            fields: Array<{ path: string; type: string; operators: string[] }>;
          }>;
        }>('{ automationEvents { key configure events fields { path type operators } } }'),
      );
      const channel = automationEvents.find((e) => e.key === 'Channel')!;
      expect(channel).toMatchObject({ configure: ['channel.id'], events: ['dataset:created', 'theme:created'] });
      const activity = automationEvents.find((e) => e.key === 'user:activity')!;
      expect(activity.fields.find((x) => x.path === 'preferences.theme')).toMatchObject({
        type: 'enum',
        operators: ['equal', 'notEqual', 'in', 'notIn'],
      });
    });
  });

  describe('when an event happens', () => {
    it('tags a note created in the project, fills placeholders, and records the run', async () => {
      const a = await create(f.manager.gql, {
        title: 'Tag and follow up interviews',
        trigger: noteTrigger(projectId, {
          combinator: 'AND',
          conditions: [{ field: 'note.title', operator: 'contains', value: 'Interview' }],
        }),
        actions: [
          {
            actionType: 'createNote',
            parameters: { projectId: otherProjectId, title: 'Follow up: {{note.title}} in {{project.title}}' },
            executionOrder: 2,
          },
          tagAction(1),
        ],
      });
      const noteId = await createNote(f.contributor.gql, 'Interview with Ada');
      await createNote(f.contributor.gql, 'Standup notes');
      await createNote(f.contributor.gql, 'Interview in another project', otherProjectId);
      const runs = await finishedRun(f.manager.gql, a.id, 2);
      const done = runs.find((r) => r.ruleResult)!;
      expect(done.status).toBe('succeeded');
      expect(done.actions.map((x) => [x.actionType, x.status, x.attempts])).toEqual([
        ['addTag', 'succeeded', 1],
        ['createNote', 'succeeded', 1],
      ]);
      expect(runs.find((r) => !r.ruleResult)).toMatchObject({
        status: 'skipped',
        payload: { note: { title: 'Standup notes' } },
      });
      // The other project's note is not this automation's event at all.
      expect(runs).toHaveLength(2);
      const tags = ok(
        await f.contributor.gql<{ note: { tags: Array<{ title: string }> } }>(
          'query($id: ID!) { note(id: $id) { tags { title } } }',
          { id: noteId },
        ),
      ).note.tags;
      expect(tags.map((t) => t.title)).toEqual(['Interview']);
      const followUp = await owner('notes').where({
        project_id: otherProjectId,
        title: 'Follow up: Interview with Ada in Onboarding research',
      });
      expect(followUp).toHaveLength(1);
      // The note the automation made is an event too, but never this automation's own.
      await new Promise((r) => setTimeout(r, 1500));
      expect(await runsOf(f.manager.gql, a.id)).toHaveLength(2);
    });

    it('runs on an insight when it is published, not when it is created', async () => {
      const a = await create(f.admin, {
        title: 'Published',
        trigger: { type: 'Event', eventKey: 'insight:published', configure: { 'project.id': projectId } },
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: '{{insight.title}}' }, executionOrder: 1 }],
      });
      const insight = ok(
        await f.admin<{ createInsight: { id: string } }>(
          'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
          { input: { projectId, title: 'Exports time out' } },
        ),
      ).createInsight;
      await new Promise((r) => setTimeout(r, 1000));
      expect(await runsOf(f.admin, a.id)).toEqual([]);
      ok(await f.admin('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: insight.id }));
      const [run] = await finishedRun(f.admin, a.id);
      expect(run!.actions[0]!.output).toMatchObject({ summary: 'probed: Exports time out' });
    });

    it('handles a redelivered event once', async () => {
      const a = await create(f.admin, {
        title: 'Once',
        trigger: noteTrigger(projectId),
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: 'once' }, executionOrder: 1 }],
      });
      await createNote(f.contributor.gql, 'Only once');
      const [run] = await finishedRun(f.admin, a.id);
      const queue = subscriberQueue('note:created', 'automation');
      const job = await owner.raw(
        `select data from pgboss.job where name = ? and data->'payload'->'note'->>'title' = 'Only once'`,
        [queue],
      );
      const event = (job.rows[0] as { data: { id: string } }).data;
      await server.fieldbook.jobs.queue.send(queue, event);
      await new Promise((r) => setTimeout(r, 2000));
      const runs = await runsOf(f.admin, a.id);
      expect(runs.map((r) => r.id)).toEqual([run!.id]);
      // History filters by date: nothing since tomorrow, this run until then.
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      const byDate = (vars: Record<string, string>) =>
        f.admin<{ automationRuns: Array<{ id: string }> }>(
          'query($id: ID!, $since: DateTime, $until: DateTime) { automationRuns(automationId: $id, since: $since, until: $until) { id } }',
          { id: a.id, ...vars },
        );
      expect(ok(await byDate({ since: tomorrow })).automationRuns).toEqual([]);
      expect(ok(await byDate({ until: tomorrow })).automationRuns.map((r) => r.id)).toEqual([run!.id]);
    });

    it('retries a failed action, then fails the run with the reason and tells the owner', async () => {
      const a = await create(f.admin, {
        title: 'Fails',
        trigger: noteTrigger(projectId),
        actions: [{ actionType: 'probe', parameters: { mode: 'fail', text: 'x' }, executionOrder: 1 }],
      });
      await createNote(f.contributor.gql, 'Trigger a failure');
      const [run] = await waitFor(
        'the failed run',
        async () => ((await runsOf(f.admin, a.id, 'failed')).length ? runsOf(f.admin, a.id, 'failed') : undefined),
        60_000,
      );
      expect(run!.error).toContain('The probe was told to fail.');
      expect(run!.actions[0]).toMatchObject({ status: 'failed', attempts: 2 });
      const notes = await owner('notifications').where({ user_id: f.ws.admin.user.id, type: 'automation_failed' });
      expect(notes.map((n: { payload: { automationId: string } }) => n.payload.automationId)).toContain(a.id);
    });

    it('cuts off an action that hangs without holding up other runs', async () => {
      const hang = await create(f.admin, {
        title: 'Hangs',
        trigger: noteTrigger(projectId),
        actions: [{ actionType: 'probe', parameters: { mode: 'hang', text: 'x' }, executionOrder: 1 }],
      });
      const quick = await create(f.admin, {
        title: 'Quick',
        trigger: noteTrigger(projectId),
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: 'quick' }, executionOrder: 1 }],
      });
      const started = Date.now();
      await createNote(f.contributor.gql, 'Hang here');
      const [ok1] = await finishedRun(f.admin, quick.id);
      expect(ok1!.status).toBe('succeeded');
      expect(ok1!.actions[0]!.output).toMatchObject({ summary: 'probed: quick' });
      const [failed] = await waitFor(
        'the hung run to fail',
        async () =>
          (await runsOf(f.admin, hang.id, 'failed')).length ? runsOf(f.admin, hang.id, 'failed') : undefined,
        60_000,
      );
      expect(failed!.error).toContain('did not finish within 2 seconds');
      expect(Date.now() - started).toBeLessThan(45_000);
    });

    it('stops at the workspace’s runs per minute, naming the limit', async () => {
      ok(await f.admin('mutation { updateAutomationSettings(runsPerMinute: 1) { runsPerMinute } }'));
      try {
        const other = await createProject(f.admin, 'Rate limited');
        const a = await create(f.admin, {
          title: 'Limited',
          trigger: noteTrigger(other.id),
          actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: 'x' }, executionOrder: 1 }],
        });
        // Earlier tests may have used this minute's run already: whichever runs are refused name the limit.
        await createNote(f.contributor.gql, 'One', other.id);
        await createNote(f.contributor.gql, 'Two', other.id);
        const runs = await finishedRun(f.admin, a.id, 2);
        const skipped = runs.filter((r) => r.status === 'skipped');
        expect(skipped.length).toBeGreaterThanOrEqual(1);
        expect(skipped[0]!.error).toBe(
          "This workspace's limit of 1 automation runs per minute was reached; this run was skipped.",
        );
      } finally {
        ok(await f.admin('mutation { updateAutomationSettings(runsPerMinute: 600) { runsPerMinute } }'));
      }
    });

    it('emails outside the workspace only to domains an admin allowed, saying so on save and in the run log', async () => {
      const target = await createProject(f.admin, 'Mail out');
      const email = (to: string[]) => ({
        actionType: 'sendEmail',
        parameters: { to, subject: 'New note', text: 'A note was created.' },
        executionOrder: 1,
      });
      const settings = (domains: string[]) =>
        f.admin<{ updateAutomationSettings: { emailDomains: string[] } }>(
          'mutation($d: [String!]) { updateAutomationSettings(emailDomains: $d) { emailDomains } }',
          { d: domains },
        );
      const refused = await createError(f.admin, {
        title: 'Mail out',
        trigger: noteTrigger(target.id),
        actions: [email([f.contributor.user.email, 'ext@partner.example'])],
      });
      expect(refused.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'actions.0.parameters.to' });
      expect(refused.message).toBe(
        'Send an email: to: ext@partner.example is outside this workspace, and partner.example is not on the list of domains automations may email. A workspace admin can add it in the automation settings.',
      );
      // Only admins keep the list, and each entry must be a domain.
      expect(
        failure(
          await f.manager.gql(
            'mutation { updateAutomationSettings(emailDomains: ["partner.example"]) { emailDomains } }',
          ),
        ).extensions?.errorCode,
      ).toBe('FORBIDDEN');
      expect(failure(await settings(['partner.example', 'not a domain'])).extensions).toMatchObject({
        errorCode: 'BAD_USER_INPUT',
        field: 'emailDomains.1',
      });
      expect(ok(await settings(['Partner.example', '@other.example'])).updateAutomationSettings.emailDomains).toEqual([
        'partner.example',
        'other.example',
      ]);
      expect(
        ok(await f.admin<{ automationSettings: { emailDomains: string[] } }>('{ automationSettings { emailDomains } }'))
          .automationSettings.emailDomains,
      ).toEqual(['partner.example', 'other.example']);
      const a = await create(f.admin, {
        title: 'Mail out',
        trigger: noteTrigger(target.id),
        actions: [email([f.contributor.user.email, 'ext@partner.example'])],
      });
      await createNote(f.contributor.gql, 'First', target.id);
      const [sent] = await finishedRun(f.admin, a.id);
      expect(sent!.status).toBe('succeeded');
      expect(mail.received.filter((m) => m.to.includes('ext@partner.example'))).toHaveLength(1);
      // Taken off the list, the domain gets nothing more and the run says why.
      ok(await settings([]));
      await createNote(f.contributor.gql, 'Second', target.id);
      const runs = await finishedRun(f.admin, a.id, 2);
      const failed = runs.find((r) => r.status === 'failed');
      expect(failed?.actions[0]!.error).toContain(
        'ext@partner.example is outside this workspace, and partner.example is not on the list of domains automations may email',
      );
      expect(mail.received.filter((m) => m.to.includes('ext@partner.example'))).toHaveLength(1);
    });

    it('disables an automation whose owner lost access, with the reason', async () => {
      const target = await createProject(f.admin, 'Access changes');
      const a = await create(f.admin, {
        title: 'Admin owned',
        trigger: { type: 'Event', eventKey: 'Project' },
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: 'x' }, executionOrder: 1 }],
      });
      const second = await addAdmin();
      const asSecond = second.gql;
      ok(await asSecond('mutation($id: ID!) { setAutomationEnabled(id: $id, enabled: true) { id } }', { id: a.id }));
      ok(
        await f.admin(
          'mutation($u: ID!) { updateMemberRole(userId: $u, role: CONTRIBUTOR, workspaceAdmin: false) { user { id } } }',
          { u: second.user.id },
        ),
      );
      await createNote(f.contributor.gql, 'After the demotion', target.id);
      const [run] = await finishedRun(f.admin, a.id);
      expect(
        run!.status,
        JSON.stringify([run, await owner('automations').where({ id: a.id }).first('owner_id'), second.user.id]),
      ).toBe('failed');
      const after = ok(
        await f.admin<{ automation: { enabled: boolean; disabledReason: string } }>(
          `query($id: ID!) { automation(id: $id) { ${AUTOMATION} } }`,
          { id: a.id },
        ),
      ).automation;
      expect(after).toMatchObject({ enabled: false, disabledReason: 'Its owner is no longer a workspace admin.' });
    });

    async function addAdmin() {
      const m = await addMember(server, mail, f.ws, 'MANAGER', { workspaceAdmin: true });
      return { ...m, gql: gqlAs(server, m.accessToken, f.ws.id) };
    }
  });

  describe('user activity, manual runs, schedules and dry runs', () => {
    it('validates user:activity and runs automations whose rules it meets', async () => {
      const a = await create(f.admin, {
        title: 'Engaged',
        trigger: {
          type: 'Event',
          eventKey: 'user:activity',
          rules: {
            combinator: 'AND',
            conditions: [
              { field: 'engagement_score', operator: 'greaterThanOrEqual', value: 50 },
              { field: 'preferences.theme', operator: 'in', value: ['dark', 'auto'] },
            ],
          },
        },
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: '{{action}}' }, executionOrder: 1 }],
      });
      const bad = failure(
        await f.admin('mutation($p: JSON!) { recordUserActivity(payload: $p) }', {
          p: { user_id: f.ws.admin.user.id, action: 'x', session_duration: -1, page_views: 0 },
        }),
      );
      expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'payload.session_duration' });
      const other = failure(
        await f.contributor.gql('mutation($p: JSON!) { recordUserActivity(payload: $p) }', {
          p: { user_id: f.ws.admin.user.id, action: 'x', session_duration: 1, page_views: 0 },
        }),
      );
      expect(other.extensions?.errorCode).toBe('FORBIDDEN');
      const p = {
        user_id: f.ws.admin.user.id,
        action: 'export',
        session_duration: 30,
        page_views: 4,
        engagement_score: 72.5,
        preferences: { notifications_enabled: true, theme: 'dark' },
      };
      ok(await f.admin('mutation($p: JSON!) { recordUserActivity(payload: $p) }', { p }));
      ok(
        await f.admin('mutation($p: JSON!) { recordUserActivity(payload: $p) }', { p: { ...p, engagement_score: 10 } }),
      );
      const runs = await finishedRun(f.admin, a.id, 2);
      expect(runs.map((r) => r.status).sort()).toEqual(['skipped', 'succeeded']);
      expect(runs.find((r) => r.status === 'succeeded')!.actions[0]!.output).toMatchObject({
        summary: 'probed: export',
      });
    });

    it('runs a manual automation by hand', async () => {
      const a = await create(f.admin, {
        title: 'By hand',
        trigger: { type: 'Event', eventKey: 'manual' },
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: 'hand {{reason}}' }, executionOrder: 1 }],
      });
      ok(await f.admin('mutation($id: ID!) { runAutomation(id: $id, payload: { reason: "demo" }) }', { id: a.id }));
      const [run] = await finishedRun(f.admin, a.id);
      expect(run!.actions[0]!.output).toMatchObject({ summary: 'probed: hand demo' });
    });

    it('fires a due schedule once even when two sweeps race', async () => {
      const a = await create(f.admin, {
        title: 'Mondays',
        trigger: {
          type: 'Schedule',
          eventKey: 'userSchedule',
          recurrence: { frequency: 'Weekly', weekday: 1, time: '09:00' },
        },
        actions: [{ actionType: 'probe', parameters: { mode: 'ok', text: '{{recurrence}}' }, executionOrder: 1 }],
      });
      const row = await owner('automations').where({ id: a.id }).first();
      expect(new Date(row.next_run_at).getUTCDay()).toBe(1);
      await owner('automations')
        .where({ id: a.id })
        .update({ next_run_at: new Date(Date.now() - 60_000) });
      const service = server.fieldbook.services.automation as AutomationServices;
      const fired = await Promise.all([service.sweepSchedules(), service.sweepSchedules(), service.sweepSchedules()]);
      expect(fired.reduce((x, y) => x + y, 0)).toBe(1);
      const [run] = await finishedRun(f.admin, a.id);
      expect(run!.actions[0]!.output).toMatchObject({ summary: 'probed: Weekly' });
      const after = await owner('automations').where({ id: a.id }).first();
      expect(new Date(after.next_run_at).getTime()).toBeGreaterThan(Date.now());
    });

    it('shows what a dry run would do, for a recent event or a sample, and does nothing', async () => {
      const a = await create(f.manager.gql, {
        title: 'Dry',
        trigger: noteTrigger(projectId, {
          combinator: 'OR',
          conditions: [{ field: 'note.title', operator: 'startsWith', value: 'Call' }],
        }),
        actions: [
          {
            actionType: 'createNote',
            parameters: { projectId, title: 'Summary of {{note.title}}' },
            executionOrder: 1,
          },
        ],
      });
      const before = await owner('notes').where({ project_id: projectId }).count({ n: '*' });
      const DRY =
        'mutation($id: ID!, $runId: ID, $payload: JSON) { dryRunAutomation(id: $id, runId: $runId, payload: $payload) { eventKey ruleResult steps { actionType parameters wouldRun problem } } }';
      const sample = {
        note: { id: projectId, title: 'Call with Bo' },
        project: { id: projectId, title: 'Onboarding research' },
        createdBy: null,
      };
      const dry = ok(
        await f.manager.gql<{
          dryRunAutomation: { ruleResult: boolean; steps: Array<{ parameters: { title: string }; wouldRun: boolean }> };
        }>(DRY, { id: a.id, payload: sample }),
      ).dryRunAutomation;
      expect(dry).toMatchObject({
        ruleResult: true,
        steps: [{ wouldRun: true, parameters: { title: 'Summary of Call with Bo' } }],
      });
      expect(failure(await f.manager.gql(DRY, { id: a.id, payload: { note: {} } })).extensions?.errorCode).toBe(
        'BAD_USER_INPUT',
      );
      await createNote(f.contributor.gql, 'Not a call');
      const [run] = await finishedRun(f.manager.gql, a.id);
      const fromRun = ok(
        await f.manager.gql<{ dryRunAutomation: { ruleResult: boolean; steps: Array<{ wouldRun: boolean }> } }>(DRY, {
          id: a.id,
          runId: run!.id,
        }),
      ).dryRunAutomation;
      expect(fromRun).toMatchObject({ ruleResult: false, steps: [{ wouldRun: false }] });
      const after = await owner('notes').where({ project_id: projectId }).count({ n: '*' });
      // Only the note this test created itself.
      expect(Number(after[0]!.n)).toBe(Number(before[0]!.n) + 1);
    });
  });

  describe('channel events', () => {
    const CSV = 'Comment\nExports are slow\n';
    const channelTrigger = (channelId: string) => ({
      type: 'Event',
      eventKey: 'Channel',
      configure: { 'channel.id': channelId },
    });
    const probe = (text: string) => [{ actionType: 'probe', parameters: { mode: 'ok', text }, executionOrder: 1 }];
    const newChannel = async (gql: Gql, name: string) =>
      ok(
        await gql<{ createChannel: { id: string } }>(
          'mutation($input: CreateChannelInput!) { createChannel(input: $input) { id } }',
          { input: { name } },
        ),
      ).createChannel.id;
    const importCsv = async (channelId: string) => {
      const settings = encodeURIComponent(JSON.stringify({ analyzeColumnLabel: 'Comment' }));
      const res = await fetch(`${server.url}/api/channels/${channelId}/imports?name=Survey&settings=${settings}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${f.ws.admin.accessToken}`,
          'x-fieldbook-workspace': f.ws.id,
          'content-type': 'text/csv',
        },
        body: CSV,
      });
      expect(res.status).toBe(202);
    };

    it('runs an automation on dataset:created for its own channel only', async () => {
      const support = await newChannel(f.admin, 'Support tickets');
      const reviews = await newChannel(f.admin, 'App reviews');
      const onSupport = await create(f.admin, {
        title: 'New support dataset',
        trigger: channelTrigger(support),
        actions: probe('support'),
      });
      const onReviews = await create(f.admin, {
        title: 'New reviews dataset',
        trigger: channelTrigger(reviews),
        actions: probe('reviews'),
      });
      await importCsv(support);
      await importCsv(reviews);
      const [supportRun] = await finishedRun(f.admin, onSupport.id);
      await finishedRun(f.admin, onReviews.id);
      // Each event was evaluated against every automation when the other's run appeared.
      const supportRuns = await runsOf(f.admin, onSupport.id);
      expect(supportRuns).toHaveLength(1);
      expect(supportRun).toMatchObject({
        status: 'succeeded',
        eventKey: 'dataset:created',
        payload: { channel: { id: support, title: 'Support tickets' } },
      });
      expect((await runsOf(f.admin, onReviews.id)).map((r) => (r.payload.channel as { id: string }).id)).toEqual([
        reviews,
      ]);
    });

    it('refuses another workspace’s channel as not found, and a contributor as not managing it', async () => {
      const other = await contentFixture(server, mail, []);
      const theirs = await newChannel(other.admin, 'Theirs');
      const e = await createError(f.admin, { title: 'Theirs', trigger: channelTrigger(theirs), actions: probe('x') });
      expect(e.extensions?.errorCode).toBe('NOT_FOUND');
      const ours = await newChannel(f.admin, 'Sales calls');
      expect(
        (await createError(f.contributor.gql, { title: 'Mine', trigger: channelTrigger(ours), actions: probe('x') }))
          .extensions?.errorCode,
      ).toBe('FORBIDDEN');
      await create(f.manager.gql, { title: 'Managed', trigger: channelTrigger(ours), actions: probe('x') });
    });
  });
});
