/** What a notification says and where it leads, from its type and payload (written by the modules). */
export interface NotificationText {
  text: string;
  to: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

export function notificationText(type: string, payload: Record<string, unknown>): NotificationText {
  const actor = str(payload.actorName) ?? 'Someone';
  const title = str(payload.objectTitle) ?? 'an item';
  const object = str(payload.objectId);
  const objectPath = object ? (payload.objectType === 'INSIGHT' ? `/insights/${object}` : `/data/${object}`) : null;
  const project = str(payload.projectId);
  const projectTitle = str(payload.projectTitle) ?? 'a project';
  switch (type) {
    case 'mention':
      return { text: `${actor} mentioned you on “${title}”`, to: objectPath };
    case 'comment':
      return { text: `${actor} commented on “${title}”`, to: objectPath };
    case 'followed_comment':
      return { text: `${actor} commented on “${title}”, which you follow`, to: objectPath };
    case 'insight_published':
      return { text: `${actor} published the insight “${title}” in ${projectTitle}`, to: objectPath };
    case 'followed_change':
      return payload.change === 'ADDED'
        ? { text: `${actor} added “${title}” to ${projectTitle}, which you follow`, to: objectPath }
        : { text: `${actor} edited “${title}”, which you follow`, to: objectPath };
    case 'followed_tag_applied': {
      const tags = Array.isArray(payload.tagTitles)
        ? payload.tagTitles.filter((t): t is string => typeof t === 'string').join(', ')
        : 'a tag';
      return {
        text: `${actor} tagged ${payload.target === 'HIGHLIGHT' ? 'a highlight in' : 'the note'} “${title}” with ${tags}, which you follow`,
        to: objectPath,
      };
    }
    case 'access_request_requested':
      return {
        text: `${actor} asked for access${str(payload.role) ? ` as ${String(payload.role).toLowerCase()}` : ''} to ${projectTitle}`,
        to: project ? `/projects/${project}/settings/access` : '/settings/users',
      };
    case 'access_request_approved':
      return {
        text: `Your access request to ${projectTitle} was approved`,
        to: project ? `/projects/${project}` : '/home',
      };
    case 'access_request_denied':
      return { text: 'Your access request was denied', to: null };
    case 'summary_ready':
      return { text: `The summary of “${title}” is ready`, to: objectPath };
    case 'automation_failed':
      return {
        text: `The automation “${str(payload.title) ?? 'Untitled automation'}” failed${str(payload.error) ? `: ${str(payload.error)}` : ''}`,
        to: str(payload.automationId) ? `/automation/${str(payload.automationId)}` : null,
      };
    case 'account_locked':
      return {
        text: 'Your account was locked after too many failed sign-ins. Check your email for the unlock link',
        to: '/settings/user/account',
      };
    case 'project_export_completed':
      return {
        text: `The export of “${projectTitle}” is ready`,
        to: project ? `/projects/${project}/settings/export` : null,
      };
    case 'project_export_failed':
      return {
        text: `The export of “${projectTitle}” failed`,
        to: project ? `/projects/${project}/settings/export` : null,
      };
    case 'project_import_completed':
      return { text: `“${projectTitle}” is imported`, to: project ? `/projects/${project}` : null };
    case 'project_import_failed':
      return { text: 'A project import failed', to: '/projects/import' };
    case 'data_retention_deletion_warning':
      return {
        text: 'Some notes and insights will soon be deleted by the data retention policy',
        to: '/settings/trash',
      };
    default:
      return { text: str(payload.message) ?? 'Something changed in your workspace', to: null };
  }
}
