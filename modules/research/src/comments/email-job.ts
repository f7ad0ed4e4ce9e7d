import { once, withTenant, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import { COMMENT_NOTIFICATION_TYPES, NOTIFICATION_EMAIL_QUEUE, type CommentNotificationPayload, type NotificationEmailJob } from './notify.ts';
import { settingsOf } from './settings.ts';
import { unsubscribeParts } from '../digests/unsubscribe.ts';

/** Where a notified person opens the object (000 §2 routes). */
function objectLink(publicUrl: URL, payload: CommentNotificationPayload): string {
  const path = payload.objectType === 'NOTE' ? `/data/${payload.objectId}` : `/insights/${payload.objectId}`;
  return new URL(path, publicUrl).toString();
}

export function commentEmail(publicUrl: URL, type: string, payload: CommentNotificationPayload, unsubscribeUrl?: string): { subject: string; text: string } {
  const what = payload.objectType === 'NOTE' ? 'note' : 'insight';
  const subject =
    type === COMMENT_NOTIFICATION_TYPES.mention
      ? `${payload.actorName} mentioned you in a comment on “${payload.objectTitle}”`
      : `${payload.actorName} commented on “${payload.objectTitle}”`;
  const text = [
    `${subject} (${what}):`,
    '',
    `“${payload.excerpt}”`,
    '',
    `Open it: ${objectLink(publicUrl, payload)}`,
    '',
    `Choose which notifications you get: ${new URL('/settings/user/notifications', publicUrl).toString()}`,
    ...(unsubscribeUrl ? [`Stop emails like this one: ${unsubscribeUrl}`] : []),
  ].join('\n');
  return { subject, text };
}

/**
 * Sends the email of one in-app notification. Delivery is at least once, so the send goes through
 * `once()`: a retried job finds the record of an email already sent and does nothing. A failed
 * send rolls the record back, so the retry sends it.
 */
export function notificationEmailJob(ctx: ModuleContext): JobDefinition<NotificationEmailJob> {
  return {
    queue: NOTIFICATION_EMAIL_QUEUE,
    settings: { retryLimit: 5, retryDelaySeconds: 10 },
    async handler(job) {
      const { notificationId, userId, workspaceId } = job.data;
      await withTenant(ctx.db.app, { userId, workspaceId }, async (trx) => {
        const notification = (await trx('notifications').where({ id: notificationId, user_id: userId }).first('type', 'payload')) as
          | { type: string; payload: CommentNotificationPayload }
          | undefined;
        if (!notification) return;
        // The person may have turned email off since the comment was written.
        if ((await settingsOf(trx, workspaceId, [userId])).get(userId)?.emailNotificationsDisabled) return;
        const kindOff = (await trx('notification_preferences').where({ user_id: userId, kind: notification.type, email: false }).first('kind')) as { kind: string } | undefined;
        if (kindOff) return;
        const user = (await trx('users').where({ id: userId }).first('email')) as { email: string } | undefined;
        if (!user) return;
        const unsubscribe = unsubscribeParts(ctx.config.publicUrl, ctx.config.secretKey, userId, notification.type);
        await once(trx, `notification-email:${notificationId}`, NOTIFICATION_EMAIL_QUEUE, () =>
          ctx.mailer.send({ to: user.email, ...commentEmail(ctx.config.publicUrl, notification.type, notification.payload, unsubscribe.pageUrl), headers: unsubscribe.headers }),
        );
      });
    },
  };
}
