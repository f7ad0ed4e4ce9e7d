import type { Knex } from 'knex';
import {
  isRestricted,
  outcomesOf,
  parsePermissionMap,
  withTenant,
  type EventBus,
  type EventSubscription,
  type ModuleContext,
} from '@fieldbook/core';
import { membersReading } from '../projects/readers.ts';
import type { FollowObjectType } from './object-types.ts';

/** Which follow option lets a change through (000 §3 notification options; see FOLLOW_OPTIONS). */
export type FollowOption = 'allComments' | 'insightsPublished' | 'allChanges';
const OPTION_COLUMN: Record<FollowOption, string> = {
  allComments: 'all_comments_enabled',
  insightsPublished: 'insights_published_enabled',
  allChanges: 'all_changes_enabled',
};

/** Notification kinds that reach followers. */
export const FOLLOW_NOTIFICATION_TYPES = {
  comment: 'followed_comment',
  insightPublished: 'insight_published',
  change: 'followed_change',
  tagApplied: 'followed_tag_applied',
} as const;

/**
 * Something followers may hear of: stored as the event's payload and fanned out by a job, so the
 * change's own request does the same small work however many people follow.
 */
export interface FollowerChange {
  workspaceId: string;
  /** The project the change is in: followers must be able to read it. */
  projectId: string;
  /** The followed objects the change concerns (its insight, project, tags). */
  objects: ReadonlyArray<{ type: FollowObjectType; id: string }>;
  option: FollowOption;
  type: string;
  /** Names the change itself (e.g. `comment:<id>`): a person gets one notification for it. */
  dedupeKey: string;
  payload: Record<string, unknown>;
  /** Never notified: the person who made the change. */
  actorId: string;
  /** People the change already notified otherwise (mentioned, say): they keep that one. */
  alreadyNotified?: readonly string[];
}

/** The domain event a change to followed objects is published as (not an automation trigger). */
export const FOLLOW_ACTIVITY_EVENT = 'follow:activity';

/** Publishes a change for its followers in the change's own transaction: they hear of it if and only if it commits. */
export async function publishToFollowers(
  events: EventBus,
  trx: Knex.Transaction,
  change: FollowerChange,
): Promise<void> {
  if (!change.objects.length) return;
  await events.publish(FOLLOW_ACTIVITY_EVENT, change.workspaceId, { ...change }, trx);
}

type NotificationInsert = Record<string, unknown> & { user_id: string; dedupe_key: string };

/**
 * Inserts notifications that name their event, skipping any a person already has for it (a
 * retried event). No RETURNING: the rows belong to other people, whom this transaction may write
 * for but not read. The common case is one statement; only when the unique key refuses it are the
 * rows inserted one by one, each in a savepoint, keeping those that are new.
 */
export async function insertNotifications(trx: Knex.Transaction, rows: readonly NotificationInsert[]): Promise<void> {
  if (!rows.length) return;
  const duplicate = (err: unknown) => (err as { code?: string }).code === '23505';
  try {
    await trx.transaction((sp) => sp('notifications').insert(rows));
  } catch (err) {
    if (!duplicate(err)) throw err;
    for (const row of rows) {
      await trx
        .transaction((sp) => sp('notifications').insert(row))
        .catch((e: unknown) => {
          if (!duplicate(e)) throw e;
        });
    }
  }
}

/**
 * The followers a change reaches, one row per person with the most frequent digest among the
 * followed objects (a person following the insight daily and its project weekly gets it daily).
 * Members only; never the actor nor those already notified; `readers` narrows a restricted project.
 */
function followersQuery(
  trx: Knex.Transaction,
  change: FollowerChange,
  readers: readonly string[] | null,
): Knex.QueryBuilder {
  const excluded = [change.actorId, ...(change.alreadyNotified ?? [])];
  return trx('follows as f')
    .join('workspace_members as m', (j) => j.on('m.workspace_id', 'f.workspace_id').andOn('m.user_id', 'f.user_id'))
    .where('f.workspace_id', change.workspaceId)
    .where(`f.${OPTION_COLUMN[change.option]}`, true)
    .whereNotIn('f.user_id', excluded)
    .where((q) => {
      for (const o of change.objects) q.orWhere({ 'f.object_type': o.type, 'f.object_id': o.id });
    })
    .modify((q) => {
      if (readers) q.whereIn('f.user_id', readers);
    })
    .groupBy('f.user_id')
    .select(
      'f.user_id',
      trx.raw(
        `(array['MONTHLY','WEEKLY','DAILY'])[max(case f.frequency when 'DAILY' then 3 when 'WEEKLY' then 2 else 1 end)] as frequency`,
      ),
    );
}

/**
 * Notifies the followers of a change, set-wise: two INSERT … SELECT statements from `follows`
 * (the notifications, and who now has a digest waiting), whatever the number of followers. Only a
 * restricted project costs one read more, to keep those who may not read it out. A person who
 * already has this change's notification (a retried event) keeps that one. Answers how many
 * followers the change concerned.
 */
export async function fanOutToFollowers(trx: Knex.Transaction, change: FollowerChange): Promise<number> {
  if (!change.objects.length) return 0;
  const project = (await trx('projects')
    .where({ id: change.projectId, workspace_id: change.workspaceId })
    .whereNull('deleted_at')
    .first('permissions')) as { permissions: unknown } | undefined;
  if (!project) return 0;
  let readers: string[] | null = null;
  if (isRestricted(parsePermissionMap(project.permissions))) {
    const followers = (await followersQuery(trx, change, null)) as Array<{ user_id: string }>;
    const reading = await membersReading(
      trx,
      change.workspaceId,
      project.permissions,
      followers.map((f) => f.user_id),
    );
    readers = [...reading.values()].filter((r) => r.canRead).map((r) => r.userId);
    if (!readers.length) return 0;
  }
  // The follower query is bound as a subquery, so its values travel as parameters. No ON
  // CONFLICT: under row-level security it would need to read other people's notifications.
  const values = [change.workspaceId, change.type, JSON.stringify(change.payload), change.dedupeKey];
  let count: number;
  try {
    const inserted = await trx.transaction((sp) =>
      sp.raw(
        `insert into notifications (user_id, workspace_id, type, payload, dedupe_key, digest)
         select x.user_id, ?, ?, ?::jsonb, ?, x.frequency from ? as x`,
        [...values, followersQuery(sp, change, readers)],
      ),
    );
    count = (inserted as { rowCount?: number }).rowCount ?? 0;
  } catch (err) {
    // A redelivered event: some have it already. Rare, so row by row, keeping the new ones.
    if ((err as { code?: string }).code !== '23505') throw err;
    const rows = (await followersQuery(trx, change, readers)) as Array<{ user_id: string; frequency: string }>;
    await insertNotifications(
      trx,
      rows.map((r) => ({
        user_id: r.user_id,
        workspace_id: change.workspaceId,
        type: change.type,
        payload: values[2],
        dedupe_key: change.dedupeKey,
        digest: r.frequency,
      })),
    );
    count = rows.length;
  }
  await trx.raw(
    `insert into notification_digest_pending (user_id, frequency) select x.user_id, x.frequency from ? as x on conflict do nothing`,
    [followersQuery(trx, change, readers)],
  );
  return count;
}
/**
 * The changes of a batch that someone follows: one read per workspace of which of the changes'
 * objects have followers with the change's option on. The rest reach nobody, so a burst of notes
 * added to an unfollowed project costs one transaction, not one each.
 */
async function followedChanges(
  db: Knex,
  changes: ReadonlyArray<FollowerChange>,
): Promise<Map<FollowerChange, boolean | Error>> {
  const byWorkspace = new Map<string, FollowerChange[]>();
  for (const c of changes) {
    const list = byWorkspace.get(c.workspaceId) ?? [];
    list.push(c);
    byWorkspace.set(c.workspaceId, list);
  }
  const answer = new Map<FollowerChange, boolean | Error>();
  for (const [workspaceId, list] of byWorkspace) {
    try {
      const objects = list.flatMap((c) => c.objects);
      const rows = objects.length
        ? await withTenant(db, { workspaceId }, (trx) =>
            trx('follows')
              .where('workspace_id', workspaceId)
              .whereIn(
                ['object_type', 'object_id'],
                objects.map((o) => [o.type, o.id]),
              )
              .groupBy('object_type', 'object_id')
              .select<Array<{ object_type: string; object_id: string } & Record<string, boolean>>>(
                'object_type',
                'object_id',
                ...Object.values(OPTION_COLUMN).map((column) => trx.raw('bool_or(??) as ??', [column, column])),
              ),
          )
        : [];
      const followed = new Map(rows.map((r) => [`${r.object_type}\u0000${r.object_id}`, r]));
      for (const c of list)
        answer.set(
          c,
          c.objects.some((o) => followed.get(`${o.type}\u0000${o.id}`)?.[OPTION_COLUMN[c.option]] === true),
        );
    } catch (err) {
      for (const c of list) answer.set(c, err instanceof Error ? err : new Error(String(err)));
    }
  }
  return answer;
}

/** Fans each published change out to its followers, as the person who made it in its workspace. */
export function followActivitySubscriber(ctx: Pick<ModuleContext, 'db'>): EventSubscription {
  const fanOut = (change: FollowerChange) =>
    withTenant(ctx.db.app, { userId: change.actorId, workspaceId: change.workspaceId }, (trx) =>
      fanOutToFollowers(trx, change),
    );
  return {
    event: FOLLOW_ACTIVITY_EVENT,
    name: 'notify-followers',
    batchSize: 20,
    handler: async (event) => {
      await fanOut(event.payload as unknown as FollowerChange);
    },
    handleBatch: async (events) => {
      const changes = events.map((e) => e.payload as unknown as FollowerChange);
      const followed = await followedChanges(ctx.db.app, changes);
      return outcomesOf(changes, async (change) => {
        const found = followed.get(change);
        if (found instanceof Error) throw found;
        if (found) await fanOut(change);
      });
    },
  };
}
