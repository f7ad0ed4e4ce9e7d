import type { Knex } from 'knex';
import { withTenant, type EventBus, type EventSubscription, type JobQueue, type ModuleContext } from '@fieldbook/core';
import { fanOutToFollowers, FOLLOW_NOTIFICATION_TYPES } from '../follows/fanout.ts';
import type { FollowObjectType } from '../follows/object-types.ts';
import { enqueueEmails, notifyComment, type CommentNotificationPayload } from './notify.ts';

/**
 * A new comment, as published in its own transaction. Everyone it concerns (mentioned members,
 * the object's author, editor and earlier commenters, and the followers of the object, its
 * project and, for a note, its tags) is notified by the subscriber's job, not by the request: a
 * comment on an insight a thousand people follow is saved as fast as one nobody follows.
 */
export const COMMENT_CREATED_EVENT = 'comment:created';

export interface CommentCreated {
  workspaceId: string;
  payload: CommentNotificationPayload;
  /** Mentioned members, already checked as able to read the object. */
  mentioned: string[];
}

export async function publishCommentCreated(
  events: EventBus,
  trx: Knex.Transaction,
  created: CommentCreated,
): Promise<void> {
  await events.publish(COMMENT_CREATED_EVENT, created.workspaceId, { ...created }, trx);
}

const TABLE = {
  NOTE: { table: 'notes', column: 'note_id' },
  INSIGHT: { table: 'insights', column: 'insight_id' },
} as const;

/** Who is involved with an object: its creator, its last editor and everyone who commented on it. */
async function involvedWith(trx: Knex.Transaction, p: CommentNotificationPayload): Promise<string[]> {
  const { table, column } = TABLE[p.objectType];
  const object = (await trx(table).where({ id: p.objectId }).first('created_by', 'updated_by')) as
    | { created_by: string | null; updated_by: string | null }
    | undefined;
  const commenters = (await trx('comments')
    .where({ [column]: p.objectId })
    .whereNotNull('created_by')
    .distinct('created_by')) as Array<{ created_by: string }>;
  return [object?.created_by, object?.updated_by, ...commenters.map((c) => c.created_by)].filter((id): id is string =>
    Boolean(id),
  );
}

/** The followed objects a comment concerns: its insight, its project, and the tags of its note. */
async function followedObjects(
  trx: Knex.Transaction,
  p: CommentNotificationPayload,
): Promise<Array<{ type: FollowObjectType; id: string }>> {
  const objects: Array<{ type: FollowObjectType; id: string }> = [{ type: 'PROJECT', id: p.projectId }];
  if (p.objectType === 'INSIGHT') objects.push({ type: 'INSIGHT', id: p.objectId });
  else {
    const tags = (await trx('note_tags').where({ note_id: p.objectId }).select('tag_id')) as Array<{ tag_id: string }>;
    objects.push(...tags.map((t) => ({ type: 'TAG' as const, id: t.tag_id })));
  }
  return objects;
}

/** Writes a comment's notifications and queues its emails, all in one transaction (a retry redoes all or nothing). */
export async function notifyCommentCreated(
  trx: Knex.Transaction,
  jobs: JobQueue,
  created: CommentCreated,
): Promise<void> {
  const p = created.payload;
  const project = (await trx('projects').where({ id: p.projectId }).first('permissions')) as
    | { permissions: unknown }
    | undefined;
  if (!project) return;
  const dedupeKey = `comment:${p.commentId}`;
  const { emails, notified } = await notifyComment(trx, {
    workspaceId: created.workspaceId,
    projectPermissions: project.permissions,
    payload: p,
    mentioned: created.mentioned,
    involved: await involvedWith(trx, p),
    dedupeKey,
  });
  await enqueueEmails(trx, jobs, emails);
  await fanOutToFollowers(trx, {
    workspaceId: created.workspaceId,
    projectId: p.projectId,
    objects: await followedObjects(trx, p),
    option: 'allComments',
    type: FOLLOW_NOTIFICATION_TYPES.comment,
    dedupeKey,
    payload: { ...p },
    actorId: p.actorId,
    alreadyNotified: notified,
  });
}

export function commentCreatedSubscriber(ctx: Pick<ModuleContext, 'db' | 'jobs'>): EventSubscription {
  return {
    event: COMMENT_CREATED_EVENT,
    name: 'notify',
    batchSize: 20,
    handler: async (event) => {
      const created = event.payload as unknown as CommentCreated;
      await withTenant(ctx.db.app, { userId: created.payload.actorId, workspaceId: created.workspaceId }, (trx) =>
        notifyCommentCreated(trx, ctx.jobs, created),
      );
    },
  };
}
