/**
 * The server part of the SDK: what a plugin's server code is built with. Plugins import only this
 * package, never Fieldbook's core or modules; the host hands them everything else.
 */
export type { PluginManifest, PluginPermission } from '../index.ts';
export { SDK_VERSION, INTERNAL_IPV4_RANGES, internalHostProblem, parsePluginManifest, remoteName } from '../index.ts';
export { definePlugin, defineAction, defineAgentTool, checkSdkRange, toolInputSchema } from './plugin.ts';
export type {
  AgentToolAnswer,
  AgentToolDeclaration,
  AgentToolInvocation,
  AgentToolResultItem,
  AutomationAction,
  AutomationActions,
  AutomationTrigger,
  InboundWebhook,
  InstallationWebhook,
  OAuthFlow,
  OAuthGrant,
  PluginDeclaration,
  PluginDefinition,
  PluginGraphql,
  PluginJob,
  PluginResolver,
  PluginServer,
  WebhookAnswer,
  WebhookEvent,
  WebhookNotes,
  WebhookNotesMade,
} from './plugin.ts';
export { PluginInputError, PluginPermissionError, type PluginInputErrorCode } from './context.ts';
export type {
  Capabilities,
  InstallationContext,
  JsonObject,
  JsonValue,
  NoteDraft,
  NotesReader,
  NotesWriter,
  PluginConnection,
  PluginContext,
  PluginHttp,
  PluginInstallation,
  PluginJobs,
  PluginLogger,
  PluginNote,
  PluginProject,
  ProjectsReader,
  RichTextDoc,
} from './context.ts';
export {
  PLUGIN_SCOPES,
  isPluginScope,
  type EgressPermission,
  type PluginPermissionName,
  type PluginScope,
} from './scopes.ts';
export {
  settingsSchema,
  type ConfigDeclaration,
  type ConfigField,
  type ConfigValues,
  type SettingField,
  type SettingsDeclaration,
  type SettingsValues,
} from './settings.ts';
export { PLUGIN_SOURCE_KINDS, defineImportSource } from './sources.ts';
export { fetchWithRetry, retryAfterMs, type RetryOptions } from './backoff.ts';
export type {
  ImportSourceContribution,
  PluginSourceKind,
  SourceConversation,
  SourceFailure,
  SourceField,
  SourceListInput,
  SourceMessage,
  SourcePage,
  SourceRecord,
  SourceTicket,
} from './sources.ts';
export * from './webhooks/index.ts';
