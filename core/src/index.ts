/** Core's public surface for modules. Modules import from here, never from core's files. */
export { defineModule } from './kernel/module.ts';
export type { ModuleContext, ModuleGraphql, EventSubscription, FieldbookModule, ModuleRef } from './kernel/module.ts';
export type { RequestContext, Viewer, WorkspaceRef, Membership } from './kernel/request-context.ts';
export { AppError, badInput, forbidden, notFound, unauthenticated, type ErrorCode } from './errors/app-error.ts';
export { validate } from './errors/validate.ts';
export { cutGraphemes, cutText } from './text/cut.ts';
export { findUnstorableText, unstorableText, type UnstorablePlace } from './text/unicode.ts';
export { MAX_INPUT_DEPTH } from './graphql/input-text.ts';
export { BodyTooLarge, readBodyText } from './http/body.ts';
export { operations, type Operation } from './graphql/operations.ts';
export { withTenant, type TenantScope } from './db/tenancy.ts';
export { connectionsHeldBy, WORKSPACE_BUSY } from './db/pool-share.ts';
export { KeyedSlots, SlotRefused, type SlotLimits } from './limits/keyed-slots.ts';
export {
  once,
  type Job,
  type JobDefinition,
  type JobQueue,
  type JobSchedule,
  type QueueSettings,
} from './jobs/queue.ts';
export {
  outcomesOf,
  publishAll,
  withEventCause,
  type DomainEvent,
  type EventBus,
  type EventCause,
  type PublishedEvent,
} from './jobs/events.ts';
export {
  TRIGGER_EVENTS,
  COMPOSITE_TRIGGERS,
  EVENT_OBJECT_KINDS,
  EVENT_FIELD_TYPES,
  PROJECT_EVENT_STATUSES,
  RECURRENCES,
  triggerEvent,
  compositeOf,
  resolveTrigger,
  parseEventPayload,
  userActivityPayload,
  type TriggerEventDefinition,
  type CompositeTrigger,
  type EventField,
  type EventFieldType,
  type EventObjectKind,
  type Recurrence,
} from './events/catalog.ts';
export { notifications, notificationPreferences, type NotificationPreference } from './notifications/notifications.ts';
export {
  NOTIFICATION_KINDS,
  DIGEST_KIND,
  kindOf,
  notificationKinds,
  type NotificationKind,
} from './notifications/kinds.ts';
export type { Permission, Role, ProductRole } from './permissions/roles.ts';
export { identityModule } from './identity/module.ts';
export { workspacesModule } from './workspaces/module.ts';
export { extensionsModule, type ExtensionsServices } from './extensions/module.ts';
export type { PluginDataPort } from './extensions/runtime/data-port.ts';
export {
  pluginImportSources,
  checkImportSourceSettings,
  listImportSource,
  SourceProblem,
  type PluginImportSource,
} from './extensions/runtime/import-sources.ts';
export type { Mailer, MailMessage } from './email/mailer.ts';
export {
  deadShareLink,
  insertShareLink,
  listShareLinks,
  openShareLink,
  publicLinksDisabled,
  revokeShareLinkIn,
  PUBLIC_LINKS_DISABLED_MESSAGE,
  type ShareActor,
  type ShareLinkRow,
} from './sharing/links.ts';
export { generateShareToken, SHARE_TOKEN_LENGTH, SHARE_TOKEN_PATTERN } from './sharing/token.ts';
export { recordAudit, type AuditKind, type AuditEntryInput } from './audit/audit-log.ts';
export { AttemptCounters, type Allowance } from './identity/sign-in-limits/attempt-counters.ts';
export { tooManyRequests, inWords } from './identity/sign-in-limits/too-many-requests.ts';
export {
  effectivePermission,
  permissionMapSchema,
  EMPTY_PERMISSION_MAP,
  SPECIAL_GROUPS,
  type PermissionMap,
  type Grantee,
} from './permissions/permission-map.ts';
export { atLeast, maxLevel, minLevel, PERMISSION_LEVELS, type PermissionLevel } from './permissions/levels.ts';
export { accessRoleForLevel, levelAllowedFor, type AccessRole } from './permissions/access-roles.ts';
export { projectAccess, parsePermissionMap, isRestricted, type ProjectAccess } from './permissions/project-access.ts';
export * from './ai/index.ts';
export {
  type EntitlementSet,
  type Entitlements,
  type EntitlementSource,
  type Feature,
  FEATURES,
  type LimitName,
  LIMITS,
} from './entitlements/index.ts';
