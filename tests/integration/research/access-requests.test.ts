import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { ReceivedMail, TestMailServer } from '../../support/smtp.ts';
import { queuesIdle } from '../../support/jobs.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
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

const REQUEST = 'id projectId userId userName role message status decidedById';
const ASK = `mutation($input: RequestProjectAccessInput!) { requestProjectAccess(input: $input) { ${REQUEST} } }`;
const APPROVE = `mutation($id: ID!) { approveAccessRequest(id: $id) { ${REQUEST} } }`;
const DENY = `mutation($id: ID!) { denyAccessRequest(id: $id) { ${REQUEST} } }`;
const LIST = `query($projectId: ID!) { projectAccessRequests(projectId: $projectId) { ${REQUEST} } }`;
const MINE = `query($projectId: ID!) { myAccessRequest(projectId: $projectId) { ${REQUEST} } }`;
const PROJECT = 'query($id: ID!) { project(id: $id) { id myAccess { level } } }';
const RESTRICTED = 'query($t: RestrictedItemType!, $id: ID!) { restrictedItemProject(objectType: $t, objectId: $id) }';
const NOTIFICATIONS = 'query { notifications(first: 100) { id type payload } }';
const PREF = 'mutation($k: String!, $e: Boolean) { updateNotificationPreference(kind: $k, email: $e) { kind email } }';

/** The one-click unsubscribe URL of an email, on the test server. */
const unsubscribeUrl = (server: TestServer, m: ReceivedMail) =>
  /^List-Unsubscribe:\s*<([^>]+)>/m
    .exec(m.raw.replace(/\r?\n[ \t]+/g, ''))![1]!
    .replace('http://localhost:3000', server.url);

interface Req {
  id: string;
  status: string;
  role: string;
  userId: string;
  userName: string | null;
  decidedById: string | null;
}
interface Note {
  type: string;
  payload: Record<string, unknown>;
}

const notificationsFor = async (gql: Gql, requestId: string): Promise<Note[]> =>
  ok(await gql<{ notifications: Note[] }>(NOTIFICATIONS)).notifications.filter(
    (n) => n.payload.accessRequestId === requestId,
  );

describe('access requests to restricted projects', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let restricted: string;
  let other: string;
  let boardNote: string;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    // The contributor creates both projects (and so has full access) and closes them to the workspace.
    restricted = (await createProject(f.contributor.gql, 'Secret interviews')).id;
    other = (await createProject(f.contributor.gql, 'Board research')).id;
    for (const projectId of [restricted, other]) {
      ok(
        await f.contributor.gql(
          'mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }',
          {
            p: projectId,
            m: { groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'full' } },
          },
        ),
      );
    }
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('rejects bad input with the field and the limit', async () => {
    const role = failure(await f.viewer.gql(ASK, { input: { projectId: restricted, role: 'MANAGER' } }));
    expect(role.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.role' });
    expect(role.message).toContain('VIEWER, CONTRIBUTOR');
    const long = failure(
      await f.viewer.gql(ASK, { input: { projectId: restricted, role: 'VIEWER', message: 'x'.repeat(1001) } }),
    );
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.message' });
    expect(long.message).toContain('1000');
    expect(failure(await f.viewer.gql(ASK, { input: { projectId: 'nope', role: 'VIEWER' } })).extensions).toMatchObject(
      { errorCode: 'BAD_USER_INPUT', field: 'input.projectId' },
    );
    // A workspace viewer never goes above read, so asking to contribute is refused.
    expect(
      failure(await f.viewer.gql(ASK, { input: { projectId: restricted, role: 'CONTRIBUTOR' } })).extensions,
    ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.role' });
    // Someone who can already read the project has nothing to ask for.
    expect(
      failure(await f.manager.gql(ASK, { input: { projectId: restricted, role: 'VIEWER' } })).extensions,
    ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.projectId' });
  });

  it('notifies the project’s deciders, refuses a second pending request, and approval grants read and tells the requester', async () => {
    expect(failure(await f.viewer.gql(PROJECT, { id: restricted })).extensions?.errorCode).toBe('NOT_FOUND');
    // The manager wants access requests in the app only.
    ok(await f.manager.gql(PREF, { k: 'access_request_requested', e: false }));
    const req = ok(
      await f.viewer.gql<{ requestProjectAccess: Req }>(ASK, {
        input: { projectId: restricted, role: 'VIEWER', message: 'For the Q3 synthesis' },
      }),
    ).requestProjectAccess;
    expect(req).toMatchObject({ status: 'PENDING', role: 'VIEWER', userId: f.viewer.user.id });
    expect(
      ok(await f.viewer.gql<{ myAccessRequest: Req | null }>(MINE, { projectId: restricted })).myAccessRequest?.id,
    ).toBe(req.id);

    const dup = failure(await f.viewer.gql(ASK, { input: { projectId: restricted, role: 'VIEWER' } }));
    expect(dup.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.projectId' });
    expect(dup.message).toContain('pending');

    // Admin (access requests manage), manager and the contributor with full access are told; the requester is not.
    for (const gql of [f.admin, f.manager.gql, f.contributor.gql]) {
      const [n] = await notificationsFor(gql, req.id);
      expect(n).toMatchObject({
        type: 'access_request_requested',
        payload: { role: 'VIEWER', accessRequestId: req.id, projectId: restricted, message: 'For the Q3 synthesis' },
      });
    }
    expect(await notificationsFor(f.viewer.gql, req.id)).toEqual([]);

    // The deciders are emailed at once, with the message and where to decide; not the manager.
    const subject = (m: ReceivedMail) => m.subject.endsWith('asks for Viewer access to “Secret interviews”');
    for (const email of [f.ws.admin.user.email, f.contributor.user.email]) {
      const asked = await mail.waitForMail(email, subject);
      expect(asked.text).toContain('“For the Q3 synthesis”');
      expect(asked.text).toContain(`http://localhost:3000/projects/${restricted}/settings/access`);
      expect(asked.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    }
    await queuesIdle(server, ['research.notification-email']);
    expect(mail.received.filter((m) => m.to.includes(f.manager.user.email.toLowerCase()) && subject(m))).toEqual([]);

    // The requester can neither see the list nor decide on their own request.
    expect(failure(await f.viewer.gql(LIST, { projectId: restricted })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.viewer.gql(APPROVE, { id: req.id })).extensions?.errorCode).toBe('NOT_FOUND');

    const list = ok(
      await f.contributor.gql<{ projectAccessRequests: Req[] }>(LIST, { projectId: restricted }),
    ).projectAccessRequests;
    expect(list.map((r) => [r.id, r.status])).toEqual([[req.id, 'PENDING']]);
    expect(list[0]!.userName).toBeTruthy();

    const approved = ok(
      await f.contributor.gql<{ approveAccessRequest: Req }>(APPROVE, { id: req.id }),
    ).approveAccessRequest;
    expect(approved).toMatchObject({ status: 'APPROVED', decidedById: f.contributor.user.id });
    expect(
      ok(await f.viewer.gql<{ project: { myAccess: { level: string } } }>(PROJECT, { id: restricted })).project.myAccess
        .level,
    ).toBe('read');
    const [told] = await notificationsFor(f.viewer.gql, req.id);
    expect(told).toMatchObject({
      type: 'access_request_approved',
      payload: { role: 'VIEWER', accessRequestId: req.id, projectId: restricted },
    });
    const welcome = await mail.waitForMail(
      f.viewer.user.email,
      (m) => m.subject === 'You now have Viewer access to “Secret interviews”',
    );
    expect(welcome.text).toContain(`http://localhost:3000/projects/${restricted}`);

    expect(failure(await f.contributor.gql(DENY, { id: req.id })).extensions?.errorCode).toBe('INVALID_OPERATION');
    expect(
      ok(await f.viewer.gql<{ myAccessRequest: Req | null }>(MINE, { projectId: restricted })).myAccessRequest,
    ).toBeNull();
  });

  it('denial leaves the project closed, tells the requester, and lets them ask again', async () => {
    const req = ok(
      await f.viewer.gql<{ requestProjectAccess: Req }>(ASK, { input: { projectId: other, role: 'VIEWER' } }),
    ).requestProjectAccess;
    expect(ok(await f.admin<{ denyAccessRequest: Req }>(DENY, { id: req.id })).denyAccessRequest.status).toBe('DENIED');
    expect(failure(await f.viewer.gql(PROJECT, { id: other })).extensions?.errorCode).toBe('NOT_FOUND');
    const [told] = await notificationsFor(f.viewer.gql, req.id);
    expect(told).toMatchObject({ type: 'access_request_denied', payload: { accessRequestId: req.id, role: 'VIEWER' } });
    // The email does not name the project the requester still cannot read; its link unsubscribes in one click.
    const denied = await mail.waitForMail(f.viewer.user.email, (m) => m.subject === 'Your access request was denied');
    expect(denied.text).not.toContain('Board research');
    const res = await fetch(unsubscribeUrl(server, denied), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(await res.json()).toEqual({ kind: 'access_request_denied', label: 'Your access request is denied' });
    const prefs = ok(
      await f.viewer.gql<{ notificationPreferences: Array<{ kind: string; email: boolean }> }>(
        '{ notificationPreferences { kind email } }',
      ),
    ).notificationPreferences;
    expect(prefs.find((p) => p.kind === 'access_request_denied')?.email).toBe(false);
    const again = ok(
      await f.viewer.gql<{ requestProjectAccess: Req }>(ASK, { input: { projectId: other, role: 'VIEWER' } }),
    ).requestProjectAccess;
    expect(again.id).not.toBe(req.id);
  });

  it('names the restricted project of a note, insight or highlight the caller cannot read, and nothing for items they can read or that do not exist', async () => {
    const note = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($i: CreateNoteInput!) { createNote(input: $i) { id } }',
        {
          i: { projectId: other, title: 'Board call', content: doc('The board wants churn by segment.') },
        },
      ),
    ).createNote.id;
    const insight = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($i: CreateInsightInput!) { createInsight(input: $i) { id } }',
        { i: { projectId: other, title: 'Churn' } },
      ),
    ).createInsight.id;
    const highlight = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        'mutation($i: CreateHighlightInput!) { createHighlight(input: $i) { id } }',
        {
          i: { noteId: note, startOffset: 4, endOffset: 9 },
        },
      ),
    ).createHighlight.id;
    const ask = async (gql: Gql, t: string, id: string) =>
      ok(await gql<{ restrictedItemProject: string | null }>(RESTRICTED, { t, id })).restrictedItemProject;
    for (const [t, id] of [
      ['NOTE', note],
      ['INSIGHT', insight],
      ['HIGHLIGHT', highlight],
    ] as const) {
      expect(await ask(f.viewer.gql, t, id)).toBe(other);
      expect(await ask(f.contributor.gql, t, id)).toBeNull();
    }
    expect(await ask(f.viewer.gql, 'NOTE', insight)).toBeNull();
    // The schema names the item types: anything else is refused before the resolver runs.
    const bad = failure(await f.viewer.gql(RESTRICTED, { t: 'PROJECT', id: note }));
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT' });
    expect(bad.message).toContain('RestrictedItemType');
    boardNote = note;
  });

  it('answers NOT_FOUND for projects and requests of another workspace', async () => {
    const pending = ok(await f.viewer.gql<{ myAccessRequest: Req | null }>(MINE, { projectId: other }))
      .myAccessRequest!;
    const foreign = await createWorkspaceWithAdmin(server, mail);
    const stranger = gqlAs(server, foreign.admin.accessToken, foreign.id);
    expect(failure(await stranger(ASK, { input: { projectId: other, role: 'VIEWER' } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(failure(await stranger(APPROVE, { id: pending.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await stranger(LIST, { projectId: other })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      ok(await stranger<{ restrictedItemProject: string | null }>(RESTRICTED, { t: 'NOTE', id: boardNote }))
        .restrictedItemProject,
    ).toBeNull();
    expect(
      ok(await f.viewer.gql<{ myAccessRequest: Req | null }>(MINE, { projectId: other })).myAccessRequest?.status,
    ).toBe('PENDING');
  });
});
