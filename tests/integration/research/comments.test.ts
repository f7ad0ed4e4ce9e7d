import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { addMember, gqlAs } from '../../support/factories.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  notificationsSettled,
  ok,
  startResearchServer,
  type ContentFixture,
  type Gql,
} from './content-support.ts';

const COMMENT =
  'id objectType objectId projectId body text mentions { userId name } authorId authorName canEdit canDelete editedAt';
const CREATE = `mutation($input: CreateCommentInput!) { createComment(input: $input) { ${COMMENT} } }`;
const UPDATE = `mutation($id: ID!, $body: String!) { updateComment(id: $id, input: { body: $body }) { ${COMMENT} } }`;
const DELETE = 'mutation($id: ID!) { deleteComment(id: $id) }';
const LIST = `query($t: CommentObjectType!, $id: ID!, $first: Int, $after: String) {
  comments(objectType: $t, objectId: $id, first: $first, after: $after) { nodes { ${COMMENT} } endCursor hasNextPage }
}`;
const NOTIFICATIONS = 'query { notifications(first: 100) { id type payload read } }';
const SETTINGS =
  'query { notificationSettings { allCommentsEnabled allChangesEnabled insightsPublishedEnabled emailNotificationsDisabled } }';
const UPDATE_SETTINGS = `mutation($input: UpdateNotificationSettingsInput!) {
  updateNotificationSettings(input: $input) { allCommentsEnabled allChangesEnabled insightsPublishedEnabled emailNotificationsDisabled }
}`;

interface Comment {
  id: string;
  objectType: string;
  objectId: string;
  body: string;
  text: string;
  mentions: Array<{ userId: string; name: string }>;
  authorId: string;
  authorName: string;
  canEdit: boolean;
  canDelete: boolean;
  editedAt: string | null;
}
interface Notification {
  id: string;
  type: string;
  payload: {
    commentId: string;
    objectType: string;
    objectId: string;
    objectTitle: string;
    actorName: string;
    excerpt: string;
  };
}

const mention = (name: string, id: string) => `@[${name}](${id})`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createNote(gql: Gql, projectId: string, title: string): Promise<string> {
  return ok(
    await gql<{ createNote: { id: string } }>(
      'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      {
        input: { projectId, title, content: doc('Some words') },
      },
    ),
  ).createNote.id;
}

async function comment(gql: Gql, objectId: string, body: string, objectType = 'NOTE'): Promise<Comment> {
  return ok(await gql<{ createComment: Comment }>(CREATE, { input: { objectType, objectId, body } })).createComment;
}

let server: TestServer;
async function notificationsOf(gql: Gql, commentId: string): Promise<Notification[]> {
  await notificationsSettled(server);
  return ok(await gql<{ notifications: Notification[] }>(NOTIFICATIONS)).notifications.filter(
    (n) => n.payload.commentId === commentId,
  );
}

describe('comments and their notifications', () => {
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    const rename = 'mutation($n: String!) { updateProfile(name: $n) { name } }';
    ok(await f.admin(rename, { n: 'Ada Admin' }));
    ok(await f.manager.gql(rename, { n: 'Max Manager' }));
    ok(await f.contributor.gql(rename, { n: 'Cora Contributor' }));
    ok(await f.viewer.gql(rename, { n: 'Vera Viewer' }));
    projectId = (await createProject(f.admin, 'Research')).id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('notifies the note’s author and each mentioned member, in-app and by email, never the commenter', async () => {
    const noteId = await createNote(f.contributor.gql, projectId, 'Onboarding call');
    const body = `Great point ${mention('Max', f.manager.user.id)}, see the second answer`;
    const c = await comment(f.viewer.gql, noteId, body);
    expect(c).toMatchObject({
      objectType: 'NOTE',
      objectId: noteId,
      body,
      text: 'Great point @Max, see the second answer',
      mentions: [{ userId: f.manager.user.id, name: 'Max Manager' }],
      authorId: f.viewer.user.id,
      authorName: 'Vera Viewer',
      canEdit: true,
      canDelete: true,
      editedAt: null,
    });

    const [toAuthor] = await notificationsOf(f.contributor.gql, c.id);
    expect(toAuthor).toMatchObject({
      type: 'comment',
      payload: {
        objectType: 'NOTE',
        objectId: noteId,
        objectTitle: 'Onboarding call',
        actorName: 'Vera Viewer',
        excerpt: 'Great point @Max, see the second answer',
      },
    });
    expect((await notificationsOf(f.manager.gql, c.id)).map((n) => n.type)).toEqual(['mention']);
    expect(await notificationsOf(f.viewer.gql, c.id)).toEqual([]);
    expect(await notificationsOf(f.admin, c.id)).toEqual([]);

    const authorMail = await mail.waitForMail(f.contributor.user.email, (m) => m.subject.includes('Onboarding call'));
    expect(authorMail.subject).toBe('Vera Viewer commented on “Onboarding call”');
    expect(authorMail.text).toContain('“Great point @Max, see the second answer”');
    expect(authorMail.text).toContain(`http://localhost:3000/data/${noteId}`);
    const mentionMail = await mail.waitForMail(f.manager.user.email, (m) => m.subject.includes('Onboarding call'));
    expect(mentionMail.subject).toBe('Vera Viewer mentioned you in a comment on “Onboarding call”');

    // A reply notifies the earlier commenter and the author, not the one replying.
    const reply = await comment(f.contributor.gql, noteId, 'Thanks, will follow up');
    expect((await notificationsOf(f.viewer.gql, reply.id)).map((n) => n.type)).toEqual(['comment']);
    expect(await notificationsOf(f.contributor.gql, reply.id)).toEqual([]);
    await mail.waitForMail(f.viewer.user.email, (m) => m.subject === 'Cora Contributor commented on “Onboarding call”');
  });

  it('keeps a comment whose excerpt is cut where an emoji sits, cutting before the emoji', async () => {
    const noteId = await createNote(f.contributor.gql, projectId, 'Emoji call');
    const body = `${'a'.repeat(198)}😀 and the rest of a long comment`;
    const c = await comment(f.viewer.gql, noteId, body);
    expect(c.body).toBe(body);
    const [toAuthor] = await notificationsOf(f.contributor.gql, c.id);
    expect(toAuthor!.payload.excerpt).toBe(`${'a'.repeat(198)}…`);
  });

  it('sends each notification’s email once, even when its job runs again', async () => {
    const noteId = await createNote(f.contributor.gql, projectId, 'Idempotent note');
    const c = await comment(f.admin, noteId, 'Once only');
    const [n] = await notificationsOf(f.contributor.gql, c.id);
    await mail.waitForMail(f.contributor.user.email, (m) => m.subject.includes('Idempotent note'));
    await server.fieldbook.jobs.queue.send('research.notification-email', {
      notificationId: n!.id,
      userId: f.contributor.user.id,
      workspaceId: f.ws.id,
    });
    // A later email to the same person proves the queue moved past the repeated job.
    const later = await comment(f.admin, noteId, 'Second one');
    expect(later.id).toBeTruthy();
    await mail.waitForMail(f.contributor.user.email, (m) => m.text.includes('Second one'));
    await sleep(1000);
    expect(
      mail.received.filter(
        (m) => m.to.includes(f.contributor.user.email.toLowerCase()) && m.text.includes('Once only'),
      ),
    ).toHaveLength(1);
  });

  it('comments on insights too, linking the email to the insight', async () => {
    const insightId = ok(
      await f.manager.gql<{ createInsight: { id: string } }>(
        'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
        {
          input: { projectId, title: 'Pricing confuses buyers' },
        },
      ),
    ).createInsight.id;
    const c = await comment(f.contributor.gql, insightId, 'Agreed', 'INSIGHT');
    expect(c.objectType).toBe('INSIGHT');
    expect((await notificationsOf(f.manager.gql, c.id)).map((n) => n.type)).toEqual(['comment']);
    const message = await mail.waitForMail(f.manager.user.email, (m) => m.subject.includes('Pricing confuses buyers'));
    expect(message.text).toContain(`http://localhost:3000/insights/${insightId}`);
    const listed = ok(await f.viewer.gql<{ comments: { nodes: Comment[] } }>(LIST, { t: 'INSIGHT', id: insightId }))
      .comments.nodes;
    expect(listed.map((x) => x.body)).toEqual(['Agreed']);
  });

  it('enforces the body limit and mentions of members only, with clear messages, writing nothing', async () => {
    const noteId = await createNote(f.admin, projectId, 'Limits');
    const cases: Array<[string, string]> = [
      ['   ', 'input.body: Write a comment.'],
      ['x'.repeat(10_001), 'input.body: A comment can be at most 10,000 characters long.'],
    ];
    for (const [body, message] of cases) {
      const error = failure(await f.contributor.gql(CREATE, { input: { objectType: 'NOTE', objectId: noteId, body } }));
      expect(error.extensions?.errorCode).toBe('BAD_USER_INPUT');
      expect(error.message).toBe(message);
    }
    const stranger = randomUUID();
    const notMember = failure(
      await f.contributor.gql(CREATE, {
        input: { objectType: 'NOTE', objectId: noteId, body: `Hi ${mention('Who', stranger)}` },
      }),
    );
    expect(notMember.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(notMember.message).toBe('Only members of this workspace can be mentioned, and Who is not one.');
    expect(notMember.extensions?.field).toBe('input.body');
    const other = await contentFixture(server, mail, []);
    const otherAdmin = other.ws.admin.user.id;
    expect(
      failure(
        await f.contributor.gql(CREATE, {
          input: { objectType: 'NOTE', objectId: noteId, body: mention('Them', otherAdmin) },
        }),
      ).message,
    ).toBe('Only members of this workspace can be mentioned, and Them is not one.');
    const crowd = Array.from({ length: 51 }, (_, i) => mention(`P${i}`, randomUUID())).join(' ');
    expect(
      failure(await f.contributor.gql(CREATE, { input: { objectType: 'NOTE', objectId: noteId, body: crowd } }))
        .message,
    ).toBe('A comment can mention at most 50 members.');
    expect(
      ok(await f.admin<{ comments: { nodes: unknown[] } }>(LIST, { t: 'NOTE', id: noteId })).comments.nodes,
    ).toEqual([]);

    const longest = await comment(f.contributor.gql, noteId, 'y'.repeat(10_000));
    expect(longest.body).toHaveLength(10_000);
    expect(failure(await f.contributor.gql(UPDATE, { id: longest.id, body: 'z'.repeat(10_001) })).message).toBe(
      'input.body: A comment can be at most 10,000 characters long.',
    );
  });

  it('lists an object’s comments oldest first, a page at a time; authors edit, authors and managers delete', async () => {
    const noteId = await createNote(f.admin, projectId, 'Thread');
    const first = await comment(f.contributor.gql, noteId, 'one');
    await comment(f.viewer.gql, noteId, 'two');
    const third = await comment(f.contributor.gql, noteId, 'three');
    const page1 = ok(
      await f.viewer.gql<{ comments: { nodes: Comment[]; endCursor: string; hasNextPage: boolean } }>(LIST, {
        t: 'NOTE',
        id: noteId,
        first: 2,
      }),
    ).comments;
    expect(page1.nodes.map((c) => c.body)).toEqual(['one', 'two']);
    expect(page1.nodes[0]).toMatchObject({ canEdit: false, canDelete: false });
    expect(page1.nodes[1]).toMatchObject({ canEdit: true, canDelete: true });
    const page2 = ok(
      await f.viewer.gql<{ comments: { nodes: Comment[]; hasNextPage: boolean } }>(LIST, {
        t: 'NOTE',
        id: noteId,
        first: 2,
        after: page1.endCursor,
      }),
    ).comments;
    expect(page2.nodes.map((c) => c.body)).toEqual(['three']);
    expect(page2.hasNextPage).toBe(false);

    const edited = ok(
      await f.contributor.gql<{ updateComment: Comment }>(UPDATE, { id: first.id, body: 'one (edited)' }),
    ).updateComment;
    expect(edited.body).toBe('one (edited)');
    expect(edited.editedAt).not.toBeNull();
    const notYours = failure(await f.admin(UPDATE, { id: first.id, body: 'hijack' }));
    expect(notYours.extensions?.errorCode).toBe('FORBIDDEN');
    expect(notYours.message).toBe('You can only edit your own comments.');
    const cannotDelete = failure(await f.viewer.gql(DELETE, { id: first.id }));
    expect(cannotDelete.extensions?.errorCode).toBe('FORBIDDEN');
    expect(cannotDelete.message).toBe('You can only delete your own comments.');
    expect(ok(await f.contributor.gql<{ deleteComment: boolean }>(DELETE, { id: first.id })).deleteComment).toBe(true);
    expect(ok(await f.manager.gql<{ deleteComment: boolean }>(DELETE, { id: third.id })).deleteComment).toBe(true);
    expect(failure(await f.contributor.gql(DELETE, { id: third.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      ok(await f.viewer.gql<{ comments: { nodes: Comment[] } }>(LIST, { t: 'NOTE', id: noteId })).comments.nodes.map(
        (c) => c.body,
      ),
    ).toEqual(['two']);
  });

  it('notifies members newly mentioned in an edit, and only them', async () => {
    const noteId = await createNote(f.admin, projectId, 'Edit mentions');
    const c = await comment(f.viewer.gql, noteId, `cc ${mention('Max', f.manager.user.id)}`);
    expect((await notificationsOf(f.manager.gql, c.id)).map((n) => n.type)).toEqual(['mention']);
    ok(
      await f.viewer.gql(UPDATE, {
        id: c.id,
        body: `cc ${mention('Max', f.manager.user.id)} ${mention('Cora', f.contributor.user.id)}`,
      }),
    );
    expect((await notificationsOf(f.manager.gql, c.id)).map((n) => n.type)).toEqual(['mention']);
    expect((await notificationsOf(f.contributor.gql, c.id)).map((n) => n.type)).toEqual(['mention']);
    // The note's author (the admin) heard of the comment once, when it was written.
    expect((await notificationsOf(f.admin, c.id)).map((n) => n.type)).toEqual(['comment']);
  });

  it('answers NOT_FOUND for objects and comments of another workspace or of projects the person cannot read', async () => {
    const other = await contentFixture(server, mail, []);
    const theirProject = (await createProject(other.admin, 'Theirs')).id;
    const theirNote = await createNote(other.admin, theirProject, 'Their note');
    const theirComment = await comment(other.admin, theirNote, 'private');
    expect(
      failure(await f.admin(CREATE, { input: { objectType: 'NOTE', objectId: theirNote, body: 'hi' } })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');
    expect(failure(await f.admin(LIST, { t: 'NOTE', id: theirNote })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.admin(UPDATE, { id: theirComment.id, body: 'x' })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.admin(DELETE, { id: theirComment.id })).extensions?.errorCode).toBe('NOT_FOUND');
    // A note id passed as an insight is not found either.
    expect(failure(await f.admin(LIST, { t: 'INSIGHT', id: theirNote })).extensions?.errorCode).toBe('NOT_FOUND');

    const secret = (await createProject(f.admin, 'Secret comments')).id;
    const hidden = await createNote(f.admin, secret, 'Hidden');
    const byAdmin = await comment(f.admin, hidden, 'only for some');
    ok(
      await f.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: secret,
        m: { groups: { markup: 'none' }, users: {} },
      }),
    );
    expect(failure(await f.contributor.gql(LIST, { t: 'NOTE', id: hidden })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await f.contributor.gql(CREATE, { input: { objectType: 'NOTE', objectId: hidden, body: 'hi' } }))
        .extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(failure(await f.manager.gql(UPDATE, { id: byAdmin.id, body: 'x' })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(DELETE, { id: byAdmin.id })).extensions?.errorCode).toBe('NOT_FOUND');
    // Mentioning someone who cannot see the project is refused; nobody outside it is told anything.
    const refused = failure(
      await f.admin(CREATE, {
        input: { objectType: 'NOTE', objectId: hidden, body: mention('Cora', f.contributor.user.id) },
      }),
    );
    expect(refused.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(refused.message).toBe('Cora cannot see this project, so they cannot be mentioned here.');
  });

  it('keeps notification settings per member and respects them', async () => {
    // A workspace of its own, so earlier comments cannot muddle what arrives.
    const ws = await contentFixture(server, mail, ['MANAGER', 'CONTRIBUTOR']);
    const author = ws.contributor.gql;
    const reader = ws.manager.gql;
    expect(ok(await author(SETTINGS)).notificationSettings).toEqual({
      allCommentsEnabled: true,
      allChangesEnabled: false,
      insightsPublishedEnabled: true,
      emailNotificationsDisabled: false,
    });
    expect(failure(await author(UPDATE_SETTINGS, { input: { allCommentsEnabled: 'no' } })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );

    const project = (await createProject(ws.admin, 'Settings')).id;
    const noteId = await createNote(author, project, 'Quiet note');

    // Comment notifications off: no comment notification, in-app or by email; mentions still arrive.
    const off = ok(
      await author<{ updateNotificationSettings: Record<string, boolean> }>(UPDATE_SETTINGS, {
        input: { allCommentsEnabled: false },
      }),
    ).updateNotificationSettings;
    expect(off).toEqual({
      allCommentsEnabled: false,
      allChangesEnabled: false,
      insightsPublishedEnabled: true,
      emailNotificationsDisabled: false,
    });
    expect(ok(await reader(SETTINGS)).notificationSettings).toMatchObject({ allCommentsEnabled: true });
    const quiet = await comment(reader, noteId, 'Nobody hears this');
    expect(await notificationsOf(author, quiet.id)).toEqual([]);
    const mentioned = await comment(reader, noteId, `But ${mention('Cora', ws.contributor.user.id)} hears this`);
    expect((await notificationsOf(author, mentioned.id)).map((n) => n.type)).toEqual(['mention']);
    await mail.waitForMail(
      ws.contributor.user.email,
      (m) => m.subject.includes('mentioned you') && m.subject.includes('Quiet note'),
    );

    // Email off: in-app only.
    ok(await author(UPDATE_SETTINGS, { input: { emailNotificationsDisabled: true, allCommentsEnabled: true } }));
    const inAppOnly = await comment(reader, noteId, `Again ${mention('Cora', ws.contributor.user.id)} in-app only`);
    expect((await notificationsOf(author, inAppOnly.id)).map((n) => n.type)).toEqual(['mention']);
    // A later email (to the reader) shows the queue moved past where the author’s would have been.
    const control = await comment(author, noteId, 'Control');
    await mail.waitForMail(ws.manager.user.email, (m) => m.text.includes('Control'));
    await sleep(1000);
    const sentToAuthor = mail.received.filter(
      (m) => m.to.includes(ws.contributor.user.email.toLowerCase()) && m.text.includes('in-app only'),
    );
    expect(sentToAuthor).toEqual([]);
    expect(control.id).toBeTruthy();
  });

  it('lets members of restricted projects with a grant be notified, and skips people removed from the project', async () => {
    const project = (await createProject(f.admin, 'Closed later')).id;
    const noteId = await createNote(f.contributor.gql, project, 'Closed note');
    ok(
      await f.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: project,
        m: { groups: { markup: 'none' }, users: {} },
      }),
    );
    // The author lost access to the project: a new comment does not reach them.
    const c = await comment(f.manager.gql, noteId, 'After closing');
    expect(await notificationsOf(f.contributor.gql, c.id)).toEqual([]);
    // A newcomer with a grant may be mentioned.
    const guest = await addMember(server, mail, f.ws, 'VIEWER');
    ok(
      await f.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: project,
        m: { groups: { markup: 'none' }, users: { [guest.user.id]: 'read' } },
      }),
    );
    const toGuest = await comment(f.manager.gql, noteId, `Welcome ${mention('Guest', guest.user.id)}`);
    expect((await notificationsOf(gqlAs(server, guest.accessToken, f.ws.id), toGuest.id)).map((n) => n.type)).toEqual([
      'mention',
    ]);
  });
});
