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
    case 'project_export_completed':
      return { text: `The export of “${projectTitle}” is ready`, to: project ? `/projects/${project}/settings/export` : null };
    case 'project_export_failed':
      return { text: `The export of “${projectTitle}” failed`, to: project ? `/projects/${project}/settings/export` : null };
    case 'project_import_completed':
      return { text: `“${projectTitle}” is imported`, to: project ? `/projects/${project}` : null };
    case 'project_import_failed':
      return { text: 'A project import failed', to: '/projects/import' };
    case 'data_retention_deletion_warning':
      return { text: 'Some notes and insights will soon be deleted by the data retention policy', to: '/settings/trash' };
    default:
      return { text: str(payload.message) ?? 'Something changed in your workspace', to: null };
  }
}
