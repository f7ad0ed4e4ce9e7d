import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { badInput, type JobQueue } from '@fieldbook/core';
import { membersReading } from '../projects/readers.ts';
import { settingsOf } from './settings.ts';
import { insertNotifications } from '../follows/fanout.ts';

/** The notification types a comment raises, named as in 002 §3 "Notification types". */
export const COMMENT_NOTIFICATION_TYPES = { comment: 'comment', mention: 'mention' } as const;
type CommentNotificationType = (typeof COMMENT_NOTIFICATION_TYPES)[keyof typeof COMMENT_NOTIFICATION_TYPES];

export const NOTIFICATION_EMAIL_QUEUE = 'research.notification-email';

/** What the email job needs to find its notification; the job reads the rest itself. */
export interface NotificationEmailJob {
  notificationId: string;
  userId: string;
  workspaceId: string;
}

export type CommentObjectType = 'NOTE' | 'INSIGHT';

/** Stored as the notification's payload; the email is written from it. */
export interface CommentNotificationPayload {
  commentId: string;
  objectType: CommentObjectType;
  objectId: string;
  objectTitle: string;
  projectId: string;
  actorId: string;
  actorName: string;
  excerpt: string;
}

export const MAX_MENTIONS = 50;

/** Mentions must name members who can read the object; otherwise nothing is written. */
export async function assertMentionable(
  trx: Knex.Transaction,
  workspaceId: string,
  projectPermissions: unknown,
  mentions: ReadonlyArray<{ userId: string; name: string }>,
): Promise<void> {
  if (mentions.length > MAX_MENTIONS)
    throw badInput('input.body', `A comment can mention at most ${MAX_MENTIONS} members.`);
  const readers = await membersReading(
    trx,
    workspaceId,
    projectPermissions,
    mentions.map((m) => m.userId),
  );
  for (const { userId, name } of mentions) {
    const reader = readers.get(userId);
    if (!reader)
      throw badInput('input.body', `Only members of this workspace can be mentioned, and ${name} is not one.`);
    if (!reader.canRead)
      throw badInput('input.body', `${name} cannot see this project, so they cannot be mentioned here.`);
  }
}

export interface CommentEvent {
  workspaceId: string;
  projectPermissions: unknown;
  payload: CommentNotificationPayload;
  /** Mentioned members to notify (already validated). */
  mentioned: readonly string[];
  /** The object's authors and contributors: its creator, last editor and earlier commenters. */
  involved: readonly string[];
  /** Names the event: one notification per person for it, however many ways they are reached. */
  dedupeKey: string;
}

/**
 * Writes the in-app notifications of a comment and answers the emails to send once the comment
 * is committed. Never the author; a mentioned member gets the mention only; people who cannot
 * read the project, have left the workspace or turned comment notifications off get nothing.
 */
export async function notifyComment(
  trx: Knex.Transaction,
  event: CommentEvent,
): Promise<{ emails: NotificationEmailJob[]; notified: string[] }> {
  const author = event.payload.actorId;
  const mentioned = [...new Set(event.mentioned)].filter((id) => id !== author);
  const involvedIds = [...new Set(event.involved)].filter((id) => id !== author && !mentioned.includes(id));
  const readers = await membersReading(trx, event.workspaceId, event.projectPermissions, [
    ...mentioned,
    ...involvedIds,
  ]);
  const settings = await settingsOf(trx, event.workspaceId, [...readers.keys()]);

  const targets: Array<{ userId: string; type: CommentNotificationType }> = [
    ...mentioned
      .filter((id) => readers.get(id)?.canRead)
      .map((userId) => ({ userId, type: COMMENT_NOTIFICATION_TYPES.mention })),
    ...involvedIds
      .filter((id) => readers.get(id)?.canRead && settings.get(id)?.allCommentsEnabled)
      .map((userId) => ({ userId, type: COMMENT_NOTIFICATION_TYPES.comment })),
  ];
  if (!targets.length) return { emails: [], notified: [] };

  const rows = targets.map((t) => ({
    id: randomUUID(),
    user_id: t.userId,
    workspace_id: event.workspaceId,
    type: t.type,
    payload: JSON.stringify(event.payload),
    dedupe_key: event.dedupeKey,
  }));
  await insertNotifications(trx, rows);
  const emails = rows
    .filter((r) => !settings.get(r.user_id)?.emailNotificationsDisabled)
    .map((r) => ({ notificationId: r.id, userId: r.user_id, workspaceId: event.workspaceId }));
  return { emails, notified: rows.map((r) => r.user_id) };
}

/**
 * Queues the emails in the comment's own transaction: they are sent if and only if the comment
 * is saved. The job sends them, so a slow mail server never slows the mutation.
 */
export async function enqueueEmails(
  trx: Knex.Transaction,
  jobs: JobQueue,
  items: readonly NotificationEmailJob[],
): Promise<void> {
  if (items.length) await jobs.insert(NOTIFICATION_EMAIL_QUEUE, items, { trx });
}
