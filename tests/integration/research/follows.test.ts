import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../core/src/email/mailer.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { digestJob } from '../../../modules/research/src/digests/digest-job.ts';
import { fillWorkspace } from '../../support/factories.ts';
import { queuesIdle } from '../../support/jobs.ts';
import { NOTIFICATION_EMAIL_QUEUE } from '../../../modules/research/src/comments/notify.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  failure,
  NOTIFICATION_QUEUES,
  notificationsSettled,
  ok,
  startResearchServer,
  type ContentFixture,
  type Gql,
} from './content-support.ts';

const FOLLOW = `mutation($input: FollowInput!) { followObject(input: $input) { objectType objectId objectTitle frequency allChangesEnabled insightsPublishedEnabled allCommentsEnabled } }`;
const UNFOLLOW = 'mutation($t: FollowObjectType!, $id: ID!) { unfollowObject(objectType: $t, objectId: $id) }';
const NOTIFICATIONS = 'query($u: Boolean) { notifications(first: 100, unreadOnly: $u) { id type payload read } }';
const COUNT = 'query { unreadNotificationCount }';
const PREF =
  'mutation($k: String!, $i: Boolean, $e: Boolean) { updateNotificationPreference(kind: $k, inApp: $i, email: $e) { kind inApp email required } }';

interface Notification {
  id: string;
  type: string;
  payload: {
    commentId?: string;
    objectId?: string;
    objectTitle?: string;
    target?: string;
    change?: string;
    tagTitles?: string[];
  };
  read: boolean;
}

const comment = async (gql: Gql, objectType: string, objectId: string, body: string) =>
  ok(
    await gql<{ createComment: { id: string } }>(
      'mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }',
      { input: { objectType, objectId, body } },
    ),
  ).createComment.id;
let server: TestServer;
const notificationsOf = async (gql: Gql, unreadOnly = false) => {
  await notificationsSettled(server);
  return ok(await gql<{ notifications: Notification[] }>(NOTIFICATIONS, { u: unreadOnly })).notifications;
};

describe('following projects, insights and tags', () => {
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  let insightId: string;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    projectId = (await createProject(f.admin, 'Churn study')).id;
    insightId = ok(
      await f.admin<{ createInsight: { id: string } }>(
        'mutation($i: CreateInsightInput!) { createInsight(input: $i) { id } }',
        { i: { projectId, title: 'Pricing confuses trials' } },
      ),
    ).createInsight.id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('follows with the chosen frequency and options, names bad input, and hides objects the caller cannot read', async () => {
    const followed = ok(
      await f.viewer.gql<{ followObject: Record<string, unknown> }>(FOLLOW, {
        input: { objectType: 'INSIGHT', objectId: insightId, frequency: 'DAILY' },
      }),
    ).followObject;
    expect(followed).toEqual({
      objectType: 'INSIGHT',
      objectId: insightId,
      objectTitle: 'Pricing confuses trials',
      frequency: 'DAILY',
      allChangesEnabled: false,
      insightsPublishedEnabled: true,
      allCommentsEnabled: true,
    });
    const changed = ok(
      await f.viewer.gql<{ followObject: { frequency: string; allChangesEnabled: boolean } }>(FOLLOW, {
        input: { objectType: 'INSIGHT', objectId: insightId, allChangesEnabled: true },
      }),
    ).followObject;
    expect(changed).toMatchObject({ frequency: 'DAILY', allChangesEnabled: true });
    expect(
      ok(await f.viewer.gql<{ follows: Array<{ objectId: string }> }>('{ follows { objectId } }')).follows.map(
        (x) => x.objectId,
      ),
    ).toEqual([insightId]);

    const badFrequency = failure(
      await f.viewer.gql(FOLLOW, { input: { objectType: 'INSIGHT', objectId: insightId, frequency: 'HOURLY' } }),
    );
    expect(badFrequency.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(
      failure(await f.viewer.gql(FOLLOW, { input: { objectType: 'PROJECT', objectId: randomUUID() } })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');
    // A restricted project the viewer has no access to is as absent as a missing one.
    const secret = (
      await createProject(f.admin, 'Board only', { permissions: { defaultAccessLevel: 'none' } }).catch(() => null)
    )?.id;
    if (secret)
      expect(
        failure(await f.viewer.gql(FOLLOW, { input: { objectType: 'PROJECT', objectId: secret } })).extensions
          ?.errorCode,
      ).toBe('NOT_FOUND');
  });

  it('a comment on a followed insight reaches its followers and the project’s, once each, never the commenter; unfollowing stops it', async () => {
    ok(await f.manager.gql(FOLLOW, { input: { objectType: 'PROJECT', objectId: projectId, frequency: 'MONTHLY' } }));
    ok(await f.contributor.gql(FOLLOW, { input: { objectType: 'INSIGHT', objectId: insightId } }));
    // The manager is mentioned and follows the project: one notification, the mention.
    const id = await comment(f.contributor.gql, 'INSIGHT', insightId, `Agreed @[Max](${f.manager.user.id})`);
    const viewerGot = (await notificationsOf(f.viewer.gql)).filter((n) => n.payload.commentId === id);
    expect(viewerGot.map((n) => n.type)).toEqual(['followed_comment']);
    expect(viewerGot[0]!.payload.objectTitle).toBe('Pricing confuses trials');
    expect((await notificationsOf(f.manager.gql)).filter((n) => n.payload.commentId === id).map((n) => n.type)).toEqual(
      ['mention'],
    );
    expect((await notificationsOf(f.contributor.gql)).filter((n) => n.payload.commentId === id)).toEqual([]);
    const digests = (await server.fieldbook.db
      .owner('notifications')
      .where({ dedupe_key: `comment:${id}` })
      .select('user_id', 'digest')) as Array<{ user_id: string; digest: string | null }>;
    expect(digests.find((d) => d.user_id === f.viewer.user.id)?.digest).toBe('DAILY');

    expect(
      ok(await f.viewer.gql<{ unfollowObject: boolean }>(UNFOLLOW, { t: 'INSIGHT', id: insightId })).unfollowObject,
    ).toBe(true);
    const later = await comment(f.contributor.gql, 'INSIGHT', insightId, 'One more thought');
    expect((await notificationsOf(f.viewer.gql)).filter((n) => n.payload.commentId === later)).toEqual([]);
    expect(
      (await notificationsOf(f.manager.gql)).filter((n) => n.payload.commentId === later).map((n) => n.type),
    ).toEqual(['followed_comment']);
  });

  it('an insight published in a followed project notifies the followers who want published insights', async () => {
    ok(
      await f.viewer.gql(FOLLOW, {
        input: { objectType: 'PROJECT', objectId: projectId, insightsPublishedEnabled: false },
      }),
    );
    const fresh = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($i: CreateInsightInput!) { createInsight(input: $i) { id } }',
        { i: { projectId, title: 'Annual plans win' } },
      ),
    ).createInsight.id;
    ok(await f.contributor.gql('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: fresh }));
    expect(
      (await notificationsOf(f.manager.gql)).filter((n) => n.payload.objectId === fresh).map((n) => n.type),
    ).toEqual(['insight_published']);
    expect((await notificationsOf(f.viewer.gql)).filter((n) => n.payload.objectId === fresh)).toEqual([]);
  });

  it('a followed tag notifies its followers when it is newly applied to a highlight or a note, and comments on notes tagged with it', async () => {
    const noteId = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Call with Ana", content: $c }) { id } }',
        {
          p: projectId,
          c: {
            type: 'doc',
            content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Pricing is confusing' }] }],
          },
        },
      ),
    ).createNote.id;
    const h = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 7 }) { id } }',
        { n: noteId },
      ),
    ).createHighlight.id;
    const board = ok(
      await f.admin<{ createTagBoard: { id: string } }>(
        'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Board" }) { id } }',
        { p: projectId },
      ),
    ).createTagBoard.id;
    const tag = async (title: string) =>
      ok(
        await f.admin<{ createTag: { id: string } }>(
          'mutation($b: ID!, $t: String!) { createTag(input: { boardId: $b, title: $t }) { id } }',
          { b: board, t: title },
        ),
      ).createTag.id;
    const [pricing, churn] = [await tag('Pricing'), await tag('Churn')];
    const follows = ok(
      await f.viewer.gql<{ followObject: { allChangesEnabled: boolean } }>(FOLLOW, {
        input: { objectType: 'TAG', objectId: pricing, frequency: 'DAILY' },
      }),
    ).followObject;
    expect(follows.allChangesEnabled).toBe(true);
    ok(await f.viewer.gql(FOLLOW, { input: { objectType: 'TAG', objectId: churn } }));
    const options = ok(
      await f.viewer.gql<{ followOptions: Array<{ key: string }> }>('{ followOptions(objectType: TAG) { key label } }'),
    ).followOptions;
    expect(options.map((o) => o.key)).toEqual(['allChangesEnabled', 'allCommentsEnabled']);

    const tagged = async () => (await notificationsOf(f.viewer.gql)).filter((n) => n.type === 'followed_tag_applied');
    ok(
      await f.contributor.gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h,
        t: [pricing, churn],
      }),
    );
    const [first, ...more] = await tagged();
    expect(more).toEqual([]);
    expect(first!.payload).toMatchObject({
      target: 'HIGHLIGHT',
      objectId: noteId,
      objectTitle: 'Call with Ana',
      tagTitles: ['Churn', 'Pricing'],
    });
    const digest = (await server.fieldbook.db.owner('notifications').where({ id: first!.id }).first('digest')) as {
      digest: string;
    };
    expect(digest.digest).toBe('DAILY');
    // Applying a tag the highlight already has is no news; tagging the note is.
    ok(
      await f.contributor.gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h,
        t: [pricing],
      }),
    );
    expect(await tagged()).toHaveLength(1);
    ok(
      await f.contributor.gql('mutation($n: ID!, $t: [ID!]!) { tagNote(noteId: $n, tagIds: $t) { id } }', {
        n: noteId,
        t: [pricing],
      }),
    );
    expect((await tagged()).map((n) => n.payload.target)).toEqual(['NOTE', 'HIGHLIGHT']);
    // The tagger hears nothing of their own tagging.
    expect((await notificationsOf(f.contributor.gql)).filter((n) => n.type === 'followed_tag_applied')).toEqual([]);

    const c = await comment(f.contributor.gql, 'NOTE', noteId, 'Pricing page needs work');
    expect((await notificationsOf(f.viewer.gql)).filter((n) => n.payload.commentId === c).map((n) => n.type)).toEqual([
      'followed_comment',
    ]);
    // Unfollowed (and turned off for the other tag): tagging is no longer news for the viewer.
    ok(await f.viewer.gql(UNFOLLOW, { t: 'TAG', id: pricing }));
    ok(await f.viewer.gql(FOLLOW, { input: { objectType: 'TAG', objectId: churn, allChangesEnabled: false } }));
    ok(
      await f.contributor.gql('mutation($n: ID!, $t: [ID!]!) { tagNote(noteId: $n, tagIds: $t) { id } }', {
        n: noteId,
        t: [churn],
      }),
    );
    expect(await tagged()).toHaveLength(2);
  });

  it('each follow option changes what followers receive: new items in a project, an insight’s edits once a day, comments', async () => {
    const study = (await createProject(f.admin, 'Options study')).id;
    ok(
      await f.manager.gql(FOLLOW, {
        input: { objectType: 'PROJECT', objectId: study, allChangesEnabled: true, allCommentsEnabled: false },
      }),
    );
    ok(await f.viewer.gql(FOLLOW, { input: { objectType: 'PROJECT', objectId: study } }));
    const insight = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($i: CreateInsightInput!) { createInsight(input: $i) { id } }',
        { i: { projectId: study, title: 'Seats matter' } },
      ),
    ).createInsight.id;
    const about = async (gql: Gql, id: string) =>
      (await notificationsOf(gql))
        .filter((n) => n.payload.objectId === id)
        .map((n) => `${n.type}:${n.payload.change ?? ''}`);
    expect(await about(f.manager.gql, insight)).toEqual(['followed_change:ADDED']);
    expect(await about(f.viewer.gql, insight)).toEqual([]);

    ok(await f.viewer.gql(FOLLOW, { input: { objectType: 'INSIGHT', objectId: insight, allChangesEnabled: true } }));
    const edit = (title: string) =>
      f.contributor.gql('mutation($id: ID!, $t: String!) { updateInsight(id: $id, input: { title: $t }) { id } }', {
        id: insight,
        t: title,
      });
    ok(await edit('Seats matter most'));
    ok(await edit('Seats matter most of all'));
    expect(await about(f.viewer.gql, insight)).toEqual(['followed_change:EDITED']);
    expect(await about(f.manager.gql, insight)).toEqual(['followed_change:ADDED']);

    // Comments: the manager turned them off for the project, the viewer follows with them on.
    await comment(f.contributor.gql, 'INSIGHT', insight, 'Seat-based pricing wins');
    expect(
      (await notificationsOf(f.manager.gql)).filter(
        (n) => n.payload.objectId === insight && n.type === 'followed_comment',
      ),
    ).toEqual([]);
    expect(
      (await notificationsOf(f.viewer.gql)).filter(
        (n) => n.payload.objectId === insight && n.type === 'followed_comment',
      ),
    ).toHaveLength(1);
  });

  it('a kind turned off in-app does not show; unread counts, the unread filter and mark-all-read agree', async () => {
    // The viewer follows the project (comments on): a comment would reach them, but they muted the kind.
    const before = await comment(f.contributor.gql, 'INSIGHT', insightId, 'Heard by the viewer');
    expect(
      (await notificationsOf(f.viewer.gql)).filter((n) => n.payload.commentId === before).map((n) => n.type),
    ).toEqual(['followed_comment']);
    const prefs = ok(
      await f.viewer.gql<{ updateNotificationPreference: Array<{ kind: string; inApp: boolean }> }>(PREF, {
        k: 'followed_comment',
        i: false,
      }),
    ).updateNotificationPreference;
    expect(prefs.find((p) => p.kind === 'followed_comment')?.inApp).toBe(false);
    const muted = await comment(f.contributor.gql, 'INSIGHT', insightId, 'Muted for the viewer');
    expect((await notificationsOf(f.viewer.gql)).filter((n) => n.payload.commentId === muted)).toEqual([]);
    expect(failure(await f.admin(PREF, { k: 'account_locked', i: false })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );
    expect(failure(await f.admin(PREF, { k: 'no_such_kind', i: false })).extensions?.field).toBe('kind');

    const unread = await notificationsOf(f.manager.gql, true);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.every((n) => !n.read)).toBe(true);
    expect(ok(await f.manager.gql<{ unreadNotificationCount: number }>(COUNT)).unreadNotificationCount).toBe(
      unread.length,
    );
    expect(
      ok(await f.manager.gql<{ markAllNotificationsRead: number }>('mutation { markAllNotificationsRead }'))
        .markAllNotificationsRead,
    ).toBe(unread.length);
    expect(ok(await f.manager.gql<{ unreadNotificationCount: number }>(COUNT)).unreadNotificationCount).toBe(0);
    expect(await notificationsOf(f.manager.gql, true)).toEqual([]);
  });

  it('in the app and by email are independent: a kind off in-app still emails at once, a kind off by email still shows in-app', async () => {
    const noteId = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!) { createNote(input: { projectId: $p, title: "Channels note" }) { id } }',
        { p: projectId },
      ),
    ).createNote.id;
    ok(await f.contributor.gql(PREF, { k: 'comment', i: false }));
    const quiet = await comment(f.admin, 'NOTE', noteId, 'Only by email please');
    const mailed = await mail.waitForMail(f.contributor.user.email, (m) => m.text.includes('Only by email please'));
    expect(mailed.subject).toContain('commented on “Channels note”');
    expect((await notificationsOf(f.contributor.gql)).filter((n) => n.payload.commentId === quiet)).toEqual([]);
    expect(ok(await f.contributor.gql<{ unreadNotificationCount: number }>(COUNT)).unreadNotificationCount).toBe(
      (await notificationsOf(f.contributor.gql, true)).length,
    );

    ok(await f.contributor.gql(PREF, { k: 'comment', i: true, e: false }));
    const loud = await comment(f.admin, 'NOTE', noteId, 'Only in the app please');
    expect(
      (await notificationsOf(f.contributor.gql)).filter((n) => n.payload.commentId === loud).map((n) => n.type),
    ).toEqual(['comment']);
    await queuesIdle(server, [NOTIFICATION_EMAIL_QUEUE]);
    expect(
      mail.received.filter(
        (m) => m.to.includes(f.contributor.user.email.toLowerCase()) && m.text.includes('Only in the app please'),
      ),
    ).toEqual([]);
    ok(await f.contributor.gql(PREF, { k: 'comment', e: true }));
  });

  it('fans a comment out to 300 followers with one insert, each follower once', async () => {
    const ids = await fillWorkspace(server, f.ws.id, 300, 'VIEWER');
    await server.fieldbook.db.owner('follows').insert(
      ids.map((user_id) => ({
        workspace_id: f.ws.id,
        user_id,
        object_type: 'INSIGHT',
        object_id: insightId,
        frequency: 'WEEKLY',
      })),
    );
    const id = await comment(f.contributor.gql, 'INSIGHT', insightId, 'Loud news');
    await notificationsSettled(server);
    const written = async () =>
      (await server.fieldbook.db
        .owner('notifications')
        .where({ dedupe_key: `comment:${id}` })
        .whereIn('user_id', ids)
        .select('user_id')) as Array<{ user_id: string }>;
    expect(new Set((await written()).map((r) => r.user_id)).size).toBe(300);
    expect(await written()).toHaveLength(300);
    // The event delivered again (delivery is at least once): still one notification each.
    const [queue] = NOTIFICATION_QUEUES;
    const { rows } = (await server.fieldbook.db.owner.raw(
      `select data from pgboss.job where name = ? and data->'payload'->'payload'->>'commentId' = ?`,
      [queue!, id],
    )) as { rows: Array<{ data: object }> };
    await server.fieldbook.jobs.queue.send(queue!, rows[0]!.data);
    await notificationsSettled(server);
    expect(await written()).toHaveLength(300);
  });

  it('emails a digest of followed activity once per person and period, with a one-click unsubscribe that needs no sign-in', async () => {
    const insight = ok(
      await f.admin<{ createInsight: { id: string } }>(
        'mutation($i: CreateInsightInput!) { createInsight(input: $i) { id } }',
        { i: { projectId, title: 'Onboarding emails' } },
      ),
    ).createInsight.id;
    ok(await f.manager.gql(FOLLOW, { input: { objectType: 'INSIGHT', objectId: insight, frequency: 'DAILY' } }));
    await comment(f.contributor.gql, 'INSIGHT', insight, 'Day one drop-off is 40%');
    await notificationsSettled(server);
    const today = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()));
    const job = digestJob({
      db: server.fieldbook.db,
      config: server.fieldbook.config,
      mailer: createMailer({
        smtpUrl: mail.url,
        from: 'Fieldbook <no-reply@localhost>',
        logger: createLogger('silent'),
      }),
    });
    const run = () =>
      job.handler({
        id: randomUUID(),
        name: 'research.digest',
        data: { userId: f.manager.user.id, frequency: 'DAILY', periodStart: today.toISOString() },
      } as never);
    await run();
    const digest = await mail.waitForMail(f.manager.user.email, (m) =>
      m.subject.startsWith('Your daily Fieldbook digest'),
    );
    expect(digest.text).toContain('commented on “Onboarding emails”: “Day one drop-off is 40%”');
    expect(digest.text).toContain(`http://localhost:3000/insights/${insight}`);
    expect(digest.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const post = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(digest.raw.replace(/\r?\n[ \t]+/g, ''))![1]!;
    // Run again (a retried job): the period is already emailed.
    await run();
    const sent = (await server.fieldbook.db
      .owner('notification_digests')
      .where({ user_id: f.manager.user.id, frequency: 'DAILY' })
      .select('notification_count')) as Array<{ notification_count: number }>;
    expect(sent).toEqual([{ notification_count: 1 }]);

    // A forged token changes nothing; the real one turns digests off without signing in.
    const forged = post.replace(/token=([^.]+)\.[^&]+/, 'token=$1.AAAA');
    expect(
      (
        await fetch(forged.replace('http://localhost:3000', server.url), {
          method: 'POST',
          body: 'List-Unsubscribe=One-Click',
        })
      ).status,
    ).toBe(400);
    const res = await fetch(post.replace('http://localhost:3000', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: 'digest', label: 'Email digests of what you follow' });
    const prefs = ok(
      await f.manager.gql<{ notificationPreferences: Array<{ kind: string; email: boolean }> }>(
        '{ notificationPreferences { kind email } }',
      ),
    ).notificationPreferences;
    expect(prefs.find((p) => p.kind === 'digest')?.email).toBe(false);
  });
});
