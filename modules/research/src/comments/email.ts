import { COMMENT_NOTIFICATION_TYPES, type CommentNotificationPayload } from './notify.ts';
import type { EmailText } from '../notification-emails/email-text.ts';

/** Where a notified person opens the object (000 §2 routes). */
function objectLink(publicUrl: URL, payload: CommentNotificationPayload): string {
  const path = payload.objectType === 'NOTE' ? `/data/${payload.objectId}` : `/insights/${payload.objectId}`;
  return new URL(path, publicUrl).toString();
}

/** The email of a comment or a mention: who wrote what, on which note or insight, and its link. */
export function commentEmail(publicUrl: URL, type: string, payload: CommentNotificationPayload): EmailText {
  const what = payload.objectType === 'NOTE' ? 'note' : 'insight';
  const subject =
    type === COMMENT_NOTIFICATION_TYPES.mention
      ? `${payload.actorName} mentioned you in a comment on “${payload.objectTitle}”`
      : `${payload.actorName} commented on “${payload.objectTitle}”`;
  return {
    subject,
    body: [`${subject} (${what}):`, '', `“${payload.excerpt}”`, '', `Open it: ${objectLink(publicUrl, payload)}`],
  };
}
