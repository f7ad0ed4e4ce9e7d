import type { Knex } from 'knex';
import { membersReading } from '../comments/notify.ts';
import type { FollowFrequency, FollowObjectType } from './follows.ts';

/** Which follow option lets a change through (000 §3 notification options). */
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
} as const;

/** The most frequent digest wins when a person follows several of the objects a change touches. */
const RANK: Record<FollowFrequency, number> = { DAILY: 3, WEEKLY: 2, MONTHLY: 1 };

export interface FollowerChange {
  workspaceId: string;
  /** The project the change is in: followers must be able to read it. */
  projectPermissions: unknown;
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

type NotificationInsert = Record<string, unknown> & { user_id: string; dedupe_key: string };

/**
 * Inserts notifications that name their event, skipping any a person already has for it (a
 * retried event). No RETURNING and no ON CONFLICT: the rows belong to other people, whom this
 * transaction may write for but neither read nor compare against. The common case is one
 * statement; only when the unique key refuses it are the rows inserted one by one, each in a
 * savepoint, keeping those that are new.
 */
export async function insertNotifications(trx: Knex.Transaction, rows: readonly NotificationInsert[]): Promise<void> {
  if (!rows.length) return;
  const duplicate = (err: unknown) => (err as { code?: string }).code === '23505';
  try {
    await trx.transaction((sp) => sp('notifications').insert(rows));
  } catch (err) {
    if (!duplicate(err)) throw err;
    for (const row of rows) {
      await trx.transaction((sp) => sp('notifications').insert(row)).catch((e: unknown) => {
        if (!duplicate(e)) throw e;
      });
    }
  }
}

/**
 * Notifies, in the change's own transaction, the followers of the objects it concerns whose
 * follow option lets it through and who can read its project. Two statements read the followers
 * and their memberships, one inserts every notification: a change followed by a thousand people
 * costs the same three round trips as one followed by a single person. A person already notified
 * of the same change (mentioned, say) keeps that one notification.
 */
export async function notifyFollowers(trx: Knex.Transaction, change: FollowerChange): Promise<number> {
  if (!change.objects.length) return 0;
  const followers = (await trx('follows')
    .where({ workspace_id: change.workspaceId })
    .where(OPTION_COLUMN[change.option], true)
    .whereNotIn('user_id', [change.actorId, ...(change.alreadyNotified ?? [])])
    .where((q) => {
      for (const o of change.objects) q.orWhere({ object_type: o.type, object_id: o.id });
    })
    .select('user_id', 'frequency')) as Array<{ user_id: string; frequency: FollowFrequency }>;
  if (!followers.length) return 0;
  const frequencyOf = new Map<string, FollowFrequency>();
  for (const f of followers) {
    const seen = frequencyOf.get(f.user_id);
    if (!seen || RANK[f.frequency] > RANK[seen]) frequencyOf.set(f.user_id, f.frequency);
  }
  const readers = await membersReading(trx, change.workspaceId, change.projectPermissions, [...frequencyOf.keys()]);
  const payload = JSON.stringify(change.payload);
  const rows = [...frequencyOf]
    .filter(([userId]) => readers.get(userId)?.canRead)
    .map(([userId, frequency]) => ({ user_id: userId, workspace_id: change.workspaceId, type: change.type, payload, dedupe_key: change.dedupeKey, digest: frequency }));
  if (!rows.length) return 0;
  await insertNotifications(trx, rows);
  const pending = [...new Set(rows.map((r) => `${r.user_id} ${r.digest}`))].map((k) => {
    const [user_id, frequency] = k.split(' ');
    return { user_id, frequency };
  });
  await trx('notification_digest_pending').insert(pending).onConflict(['user_id', 'frequency']).ignore();
  return rows.length;
}
