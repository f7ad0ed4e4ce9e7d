/**
 * Notification fan-out: a comment on an insight followed by 1,000 members (BENCH_FOLLOWERS).
 * Measures the createComment mutation end to end over HTTP, p50 and p95 over
 * BENCH_FANOUT_COMMENTS comments (the request publishes one event; the followers' notifications
 * are written by its subscriber's job, set-wise), then how long a comment takes until all its
 * followers have it, and checks every follower got exactly one notification per comment. Run
 * alone with `npx tsx --no-node-snapshot bench/notifications.ts`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Fieldbook } from '../core/src/server.ts';
import { graphql, percentile, round, runAlone } from './support.ts';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1000);
const COMMENTS = Number(process.env.BENCH_FANOUT_COMMENTS ?? 20);

export interface NotificationFanoutBench {
  followers: number;
  comments: number;
  /** createComment round trip, notifications included. */
  p50Ms: number;
  p95Ms: number;
  /** The same mutation on an insight nobody follows, for the fan-out's own share. */
  unfollowedP50Ms: number;
  notificationsPerSec: number;
  /** From the mutation's start until every follower has the notification (p50 of a few comments). */
  deliveredP50Ms: number;
}

export async function benchNotificationFanout(o: {
  fieldbook: Fieldbook;
  url: string;
  token: string;
  log(line: string): void;
}): Promise<NotificationFanoutBench> {
  const { fieldbook, url, token, log } = o;
  const owner = fieldbook.db.owner;
  const ws = (
    await graphql<{ createWorkspace: { workspace: { id: string } } }>(
      url,
      'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
      { input: { method: 'AUTH0', teamName: `Fan-out bench ${Date.now().toString(36)}` } },
      token,
    )
  ).createWorkspace.workspace.id;
  const project = (
    await graphql<{ createProject: { id: string } }>(
      url,
      'mutation ($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Fan-out' } },
      token,
      ws,
    )
  ).createProject.id;
  const insight = async (title: string) =>
    (
      await graphql<{ createInsight: { id: string } }>(
        url,
        'mutation ($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
        { input: { projectId: project, title } },
        token,
        ws,
      )
    ).createInsight.id;
  const followed = await insight('Followed by everyone');
  const quiet = await insight('Followed by nobody');

  log(`notifications: ${FOLLOWERS} members following one insight ...`);
  const tag = randomBytes(3).toString('hex');
  const users = Array.from({ length: FOLLOWERS }, (_, i) => ({
    id: randomUUID(),
    email: `follower-${tag}-${i}@example.com`,
    name: `Follower ${i}`,
  }));
  for (let i = 0; i < users.length; i += 1000) {
    const slice = users.slice(i, i + 1000);
    await owner('users').insert(slice);
    await owner('workspace_members').insert(slice.map((u) => ({ workspace_id: ws, user_id: u.id, role: 'VIEWER' })));
    await owner('follows').insert(
      slice.map((u) => ({
        workspace_id: ws,
        user_id: u.id,
        object_type: 'INSIGHT',
        object_id: followed,
        frequency: 'WEEKLY',
      })),
    );
  }

  const comment = async (objectId: string, body: string) => {
    const t = performance.now();
    await graphql(
      url,
      'mutation ($input: CreateCommentInput!) { createComment(input: $input) { id } }',
      { input: { objectType: 'INSIGHT', objectId, body } },
      token,
      ws,
    );
    return performance.now() - t;
  };
  await comment(followed, 'warm-up');
  await comment(quiet, 'warm-up');
  log(`notifications: ${COMMENTS} comments fanned out to ${FOLLOWERS} followers each ...`);
  const times: number[] = [];
  const quietTimes: number[] = [];
  for (let i = 0; i < COMMENTS; i++) {
    times.push(await comment(followed, `Comment ${i} for everyone`));
    quietTimes.push(await comment(quiet, `Comment ${i} for nobody`));
  }
  const countOf = async (q: (b: ReturnType<typeof owner>) => unknown) => {
    const b = owner('notifications');
    q(b);
    return Number(((await b.count({ n: '*' })) as Array<{ n: string }>)[0]!.n);
  };
  const allWritten = async (expected: number, where: (b: ReturnType<typeof owner>) => unknown, timeoutMs = 60_000) => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const n = await countOf(where);
      if (n === expected) return;
      if (n > expected || performance.now() > deadline)
        throw new Error(`expected ${expected} notifications, found ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const followerIds = users.map((u) => u.id);
  await allWritten(FOLLOWERS * (COMMENTS + 1), (b) => b.whereIn('user_id', followerIds));
  log('notifications: time until every follower has a comment ...');
  const delivered: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const { createComment } = await graphql<{ createComment: { id: string } }>(
      url,
      'mutation ($input: CreateCommentInput!) { createComment(input: $input) { id } }',
      { input: { objectType: 'INSIGHT', objectId: followed, body: `Delivered ${i}` } },
      token,
      ws,
    );
    await allWritten(FOLLOWERS, (b) => b.where({ dedupe_key: `comment:${createComment.id}` }));
    delivered.push(performance.now() - t);
  }
  const p50 = percentile(times, 50);
  return {
    followers: FOLLOWERS,
    comments: COMMENTS,
    p50Ms: round(p50),
    p95Ms: round(percentile(times, 95)),
    unfollowedP50Ms: round(percentile(quietTimes, 50)),
    notificationsPerSec: Math.round(FOLLOWERS / (percentile(delivered, 50) / 1000)),
    deliveredP50Ms: round(percentile(delivered, 50)),
  };
}

export function notificationFanoutLines(r: NotificationFanoutBench): string[] {
  return [
    `Notification fan-out: a comment on an insight followed by ${r.followers} members (${r.comments} comments)`,
    `  createComment p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms (unfollowed insight p50 ${r.unfollowedP50Ms} ms)`,
    `  every follower notified ${r.deliveredP50Ms} ms after the comment (p50); about ${r.notificationsPerSec} notifications/s`,
  ];
}

async function main(): Promise<void> {
  await runAlone(
    'notifications',
    async ({ fieldbook, url, token, log }) =>
      notificationFanoutLines(await benchNotificationFanout({ fieldbook, url, token, log })),
    {
      researcherName: 'Bench Notifier',
    },
  );
}

if (process.argv[1]?.endsWith('bench/notifications.ts')) await main();
