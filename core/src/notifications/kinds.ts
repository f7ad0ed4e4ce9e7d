/**
 * The notification kinds a person can choose about (002 §3 "Notification types"; 001 §3.8), in
 * the order the preferences page lists them. `email` says how a kind reaches the inbox: at once,
 * in the digest of the follow's frequency, or not at all. `required` kinds stay on in-app (a
 * locked account must be noticed).
 */
export interface NotificationKind {
  kind: string;
  label: string;
  group: 'You' | 'Following' | 'Work' | 'Recruit' | 'Billing' | 'Workspace' | 'Account';
  email: 'immediate' | 'digest' | 'none';
  required?: boolean;
}

/** Core's own kinds and those of the modules every installation has. */
export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  { kind: 'mention', label: 'Someone mentions you in a comment', group: 'You', email: 'immediate' },
  {
    kind: 'comment',
    label: 'Comments on notes and insights you wrote, edited or commented on',
    group: 'You',
    email: 'immediate',
  },
  { kind: 'access_request_requested', label: 'Someone asks for access', group: 'You', email: 'immediate' },
  { kind: 'access_request_approved', label: 'Your access request is approved', group: 'You', email: 'immediate' },
  { kind: 'access_request_denied', label: 'Your access request is denied', group: 'You', email: 'immediate' },
  {
    kind: 'followed_comment',
    label: 'Comments on projects and insights you follow',
    group: 'Following',
    email: 'digest',
  },
  {
    kind: 'insight_published',
    label: 'Insights published in projects you follow',
    group: 'Following',
    email: 'digest',
  },
  {
    kind: 'followed_tag_applied',
    label: 'Tags you follow applied to highlights and notes',
    group: 'Following',
    email: 'digest',
  },
  {
    kind: 'followed_change',
    label: 'Notes and insights added to projects you follow, and edits to insights you follow',
    group: 'Following',
    email: 'digest',
  },
  { kind: 'project_export_completed', label: 'A project export is ready', group: 'Work', email: 'none' },
  { kind: 'project_export_failed', label: 'A project export failed', group: 'Work', email: 'none' },
  { kind: 'project_import_completed', label: 'A project import is done', group: 'Work', email: 'none' },
  { kind: 'project_import_failed', label: 'A project import failed', group: 'Work', email: 'none' },
  { kind: 'summary_ready', label: 'A summary you asked for is ready', group: 'Work', email: 'immediate' },
  { kind: 'automation_failed', label: 'An automation you own failed', group: 'Work', email: 'none' },
  { kind: 'automation_message', label: 'Messages from automations', group: 'Work', email: 'none' },
  {
    kind: 'data_retention_deletion_warning',
    label: 'Data retention will soon delete notes and insights',
    group: 'Workspace',
    email: 'none',
  },
  {
    kind: 'account_locked',
    label: 'Your account is locked after failed sign-ins',
    group: 'Account',
    email: 'none',
    required: true,
  },
];

export const DIGEST_KIND = 'digest';

/**
 * Kinds a module adds (media's "transcript ready", billing's invoice and card events, recruit's
 * participant changes), declared as `notificationKinds` in its definition. Kinds are code, the
 * same in every Fieldbook of a process, so one registry serves them all.
 */
const registered = new Map<string, { owner: string; kind: NotificationKind }>();

export function registerNotificationKinds(owner: string, kinds: readonly NotificationKind[]): void {
  for (const kind of kinds) {
    const taken =
      registered.get(kind.kind)?.owner ?? (NOTIFICATION_KINDS.some((k) => k.kind === kind.kind) ? 'core' : null);
    if (taken && taken !== owner)
      throw new Error(`Notification kind "${kind.kind}" of "${owner}" is already "${taken}"'s`);
    if (kind.kind === DIGEST_KIND) throw new Error(`"${DIGEST_KIND}" is not a kind a module may add`);
    registered.set(kind.kind, { owner, kind });
  }
}

/** Every kind, in the order the preferences page lists them: by group, core's first within one. */
export function notificationKinds(): readonly NotificationKind[] {
  const all = [...NOTIFICATION_KINDS, ...[...registered.values()].map((r) => r.kind)];
  const groups: NotificationKind['group'][] = [
    'You',
    'Following',
    'Work',
    'Recruit',
    'Billing',
    'Workspace',
    'Account',
  ];
  return all.sort((a, b) => groups.indexOf(a.group) - groups.indexOf(b.group));
}

export const kindOf = (kind: string): NotificationKind | undefined =>
  NOTIFICATION_KINDS.find((k) => k.kind === kind) ?? registered.get(kind)?.kind;
