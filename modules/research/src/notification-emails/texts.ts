import { notificationKinds } from '@fieldbook/core';
import { commentEmail } from '../comments/email.ts';
import type { CommentNotificationPayload } from '../comments/notify.ts';
import type { EmailText } from './email-text.ts';

type Payload = Record<string, unknown>;
type Writer = (publicUrl: URL, type: string, payload: Payload) => EmailText;

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const link = (publicUrl: URL, path: string) => new URL(path, publicUrl).toString();
const roleName = (payload: Payload) => (str(payload.role) === 'CONTRIBUTOR' ? 'Contributor' : 'Viewer');

/** The person who decides is sent to the project's access page, where the request waits. */
const accessRequested: Writer = (publicUrl, _type, p) => {
  const subject = `${str(p.actorName) ?? 'Someone'} asks for ${roleName(p)} access to “${str(p.projectTitle) ?? 'a project'}”`;
  const message = str(p.message);
  return {
    subject,
    body: [
      `${subject}.`,
      ...(message ? ['', `“${message}”`] : []),
      '',
      `Approve or deny it: ${link(publicUrl, `/projects/${String(p.projectId)}/settings/access`)}`,
    ],
  };
};

const accessApproved: Writer = (publicUrl, _type, p) => {
  const title = str(p.projectTitle) ?? 'a project';
  return {
    subject: `You now have ${roleName(p)} access to “${title}”`,
    body: [
      `${str(p.actorName) ?? 'Someone'} approved your request for ${roleName(p)} access to “${title}”.`,
      '',
      `Open it: ${link(publicUrl, `/projects/${String(p.projectId)}`)}`,
    ],
  };
};

/** A denied request never names the project: the requester still cannot read it. */
const accessDenied: Writer = (_publicUrl, _type, p) => ({
  subject: 'Your access request was denied',
  body: [`Your request for ${roleName(p)} access to a project was denied. You can ask again from the project's link.`],
});

const summaryReady: Writer = (publicUrl, _type, p) => {
  const title = str(p.objectTitle) ?? 'your note';
  const path = p.objectType === 'INSIGHT' ? `/insights/${String(p.objectId)}` : `/data/${String(p.objectId)}`;
  return {
    subject: `The summary of “${title}” is ready`,
    body: [`The AI summary of “${title}” is written.`, '', `Read it: ${link(publicUrl, path)}`],
  };
};

const comment: Writer = (publicUrl, type, p) =>
  commentEmail(publicUrl, type, p as unknown as CommentNotificationPayload);

/** The kinds emailed at once (kinds.ts says which), each with how its email reads. */
const WRITERS: Record<string, Writer> = {
  mention: comment,
  comment,
  access_request_requested: accessRequested,
  access_request_approved: accessApproved,
  access_request_denied: accessDenied,
  summary_ready: summaryReady,
};

/** Kinds emailed at once; asked each time, since modules add kinds as they load. */
export const isImmediateEmailKind = (kind: string): boolean =>
  notificationKinds().some((k) => k.kind === kind && k.email === 'immediate');

/**
 * The email of one notification, or null for a kind not emailed at once. Every email ends with
 * where to choose one's notifications and, when given, the one-click unsubscribe of its kind.
 */
export function notificationEmail(
  publicUrl: URL,
  type: string,
  payload: Payload,
  unsubscribeUrl?: string,
): { subject: string; text: string } | null {
  const writer = isImmediateEmailKind(type) ? WRITERS[type] : undefined;
  if (!writer) return null;
  const { subject, body } = writer(publicUrl, type, payload);
  const text = [
    ...body,
    '',
    `Choose which notifications you get: ${link(publicUrl, '/settings/user/notifications')}`,
    ...(unsubscribeUrl ? [`Stop emails like this one: ${unsubscribeUrl}`] : []),
  ].join('\n');
  return { subject, text };
}
