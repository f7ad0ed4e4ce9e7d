import { once, withTenant, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import { NOTIFICATION_EMAIL_QUEUE, type NotificationEmailJob } from '../comments/notify.ts';
import { settingsOf } from '../comments/settings.ts';
import { unsubscribeParts } from '../digests/unsubscribe.ts';
import { notificationEmail } from './texts.ts';

/**
 * Sends the email of one notification of a kind emailed at once (comments, mentions, access
 * requests, summaries ready). Delivery is at least once, so the send goes through `once()`: a
 * retried job finds the record of an email already sent and does nothing. A failed send rolls the
 * record back, so the retry sends it.
 */
export function notificationEmailJob(ctx: ModuleContext): JobDefinition<NotificationEmailJob> {
  return {
    queue: NOTIFICATION_EMAIL_QUEUE,
    settings: { retryLimit: 5, retryDelaySeconds: 10 },
    async handler(job) {
      const { notificationId, userId, workspaceId } = job.data;
      await withTenant(ctx.db.app, { userId, workspaceId }, async (trx) => {
        const notification = (await trx('notifications')
          .where({ id: notificationId, user_id: userId })
          .first('type', 'payload')) as { type: string; payload: Record<string, unknown> } | undefined;
        if (!notification) return;
        // The person may have turned email off since the notification was written.
        if ((await settingsOf(trx, workspaceId, [userId])).get(userId)?.emailNotificationsDisabled) return;
        const kindOff = (await trx('notification_preferences')
          .where({ user_id: userId, kind: notification.type, email: false })
          .first('kind')) as { kind: string } | undefined;
        if (kindOff) return;
        const user = (await trx('users').where({ id: userId }).first('email')) as { email: string } | undefined;
        if (!user) return;
        const unsubscribe = unsubscribeParts(ctx.config.publicUrl, ctx.config.secretKey, userId, notification.type);
        const email = notificationEmail(
          ctx.config.publicUrl,
          notification.type,
          notification.payload,
          unsubscribe.pageUrl,
        );
        if (!email) return;
        await once(trx, `notification-email:${notificationId}`, NOTIFICATION_EMAIL_QUEUE, () =>
          ctx.mailer.send({ to: user.email, ...email, headers: unsubscribe.headers }),
        );
      });
    },
  };
}
