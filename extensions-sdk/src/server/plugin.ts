import { z } from 'zod';
import semver from 'semver';
import { SDK_VERSION, parsePluginManifest, type PluginManifest } from '../index.ts';
import type { InstallationContext, JsonObject, JsonValue, NoteDraft, PluginContext, PluginNote } from './context.ts';
import type { PluginScope } from './scopes.ts';
import type { ConfigDeclaration, SettingsDeclaration } from './settings.ts';
import type { ImportSourceContribution } from './sources.ts';
import type { WebhookRequest, WebhookVerdict } from './webhooks/index.ts';

/** An immediate answer to a webhook, e.g. Slack's url_verification challenge. */
export interface WebhookAnswer {
  status?: number;
  body?: JsonObject | string;
}

/** An event the host verified, stored once and handed to the plugin in a job. */
export interface WebhookEvent {
  eventId: string;
  headers: Readonly<Record<string, string | undefined>>;
  /** The raw body as received (JSON or form-encoded, as the provider sent it). */
  body: string;
}

/**
 * An inbound webhook at a fixed path (e.g. `/slack/webhook`). The host reads the raw body,
 * calls `verify` (401 and nothing stored when it fails), answers `respond` at once when it
 * returns something, and otherwise stores the event under (plugin, `eventId`) and queues `handle`
 * in one transaction: a repeated delivery has no second effect.
 */
export interface InboundWebhook<Ctx, Base = PluginContext> {
  /** The path, e.g. `/slack/webhook`; unique across plugins. */
  path: `/${string}`;
  /**
   * Checks the signature with the operator's configuration; may be async. A sandboxed verifier
   * that answers at once (as the SDK's `verify…Request` helpers do) is checked with the least
   * work per delivery; one that returns a promise costs a hand-over between threads each time.
   */
  verify(request: WebhookRequest, ctx: Base): WebhookVerdict | Promise<WebhookVerdict>;
  /** Answers without storing anything (challenges, validations); null or undefined to go on. */
  respond?(
    request: WebhookRequest,
    ctx: Base,
  ): WebhookAnswer | null | undefined | Promise<WebhookAnswer | null | undefined>;
  /** The provider's id of the event; the same event delivered twice has the same id. */
  eventId(request: WebhookRequest): string;
  /**
   * The provider's id of the account the event is for, matched to a connected installation; or,
   * for a provider without accounts, the installation's own id (shown to admins in the plugin's
   * settings). Null to accept and ignore the event.
   */
  externalId(request: WebhookRequest): string | null;
  /** Does the work, in a job after the answer; it may run more than once for one event. */
  handle(ctx: Ctx, event: WebhookEvent): Promise<void>;
  /**
   * Optional, for events that make notes: the notes each event of a batch makes, worked out
   * without changing anything (reading the provider's API is fine). The host creates the batch's
   * notes in one transaction, one per `key` ever, with the deliveries marked handled, then calls
   * `notesMade`. An event answered null, and every event of a batch that fails, goes to `handle`
   * on its own, so one bad event never holds up the others.
   */
  notesFor?(ctx: Ctx, events: WebhookEvent[]): Promise<Array<WebhookNotes | null>>;
  /** After a batch's notes committed, e.g. to tell each person where their note is. A failure is logged, not retried. */
  notesMade?(ctx: Ctx, made: WebhookNotesMade[]): Promise<void>;
}

/** The notes one event makes; `state` is the plugin's own, handed back to `notesMade`. */
export interface WebhookNotes {
  notes: Array<NoteDraft & { key: string }>;
  state?: JsonValue;
}

/** An event's notes once committed, `created` false for a key that had made its note before. */
export interface WebhookNotesMade {
  eventId: string;
  notes: Array<PluginNote & { created: boolean }>;
  state?: JsonValue;
}

/**
 * A webhook each installation receives at its own URL, /hooks/{pluginId}/{installationKey}, for
 * providers that give every account its own signing secret (Linear, GitHub, Zendesk, Intercom,
 * HubSpot, Front, Jira). The URL alone names the installation, so providers that cannot send
 * custom headers work. The host bounds the body's size, then calls `verify` with the
 * installation's context (its settings and secrets): 401 and nothing stored when it fails. Only a
 * verified delivery is stored, deduplicated on (installation, `eventId`), and `handle` queued, in
 * one transaction; so a forged delivery that reuses a genuine event id cannot block the genuine one.
 * Workspace admins see the URL in the plugin's settings and can rotate it (the old one stops at once).
 */
export interface InstallationWebhook<Ctx> {
  /** Runs before anything is stored; sees the installation's settings and secrets. Best answered at once (see InboundWebhook.verify). */
  verify(request: WebhookRequest, ctx: Ctx): WebhookVerdict | Promise<WebhookVerdict>;
  /** Answers without storing anything (challenges, validations); null or undefined to go on. */
  respond?(
    request: WebhookRequest,
    ctx: Ctx,
  ): WebhookAnswer | null | undefined | Promise<WebhookAnswer | null | undefined>;
  /** The provider's id of the event, taken only after verification passed. */
  eventId(request: WebhookRequest): string;
  /** Does the work, in a job after the answer; it may run more than once for one event. */
  handle(ctx: Ctx, event: WebhookEvent): Promise<void>;
}

/** A job of the plugin, run for one installation. */
export interface PluginJob<Ctx> {
  handler(ctx: Ctx, data: JsonObject): Promise<void>;
  /** Attempts after the first failure (default 3). */
  retryLimit?: number;
}

/** What the automation module passes to an action: the event that triggered the automation. */
export interface AutomationTrigger {
  event: string;
  payload: JsonObject;
}

/**
 * An automation action (001 §3): typed parameters checked before `execute`, so an automation
 * with bad parameters is refused when it is saved, not when it runs.
 */
export interface AutomationAction<Ctx, Params extends z.ZodType = z.ZodType> {
  /** e.g. `sendToSlack`. */
  key: string;
  title: string;
  description?: string;
  parameters: Params;
  /** A property, not a method, so that an action needing a scope cannot go into a plugin without it. */
  execute: (ctx: Ctx, params: z.output<Params>, trigger: AutomationTrigger) => Promise<{ summary?: string } | void>;
}

/**
 * A plugin's actions, each typed from its own `parameters`: written inside `definePlugin`, an
 * action's `execute` receives `params` as its schema's output with no annotation.
 */
export type AutomationActions<Ctx, Params extends readonly z.ZodType[] = readonly z.ZodType[]> = {
  readonly [K in keyof Params]: AutomationAction<Ctx, Params[K]>;
};

/**
 * Types an action written outside `definePlugin` (in a file of its own): `params` follows
 * `parameters`, and the context is the one `execute` names, e.g. `InstallationContext<'notes:write'>`.
 */
export function defineAction<Ctx, Params extends z.ZodType>(
  action: AutomationAction<Ctx, Params>,
): AutomationAction<Ctx, Params> {
  return action;
}

/** An object a tool's answer names, so the agent can cite it and the conversation can link it. */
export interface AgentToolResultItem {
  type: string;
  id: string;
  title?: string;
  /** A path in Fieldbook (`/data/{noteId}`) or a full URL at the provider. */
  url?: string;
}

/** What a plugin's agent tool answers: text for the model, and optionally the items it names and structured data. */
export interface AgentToolAnswer {
  text: string;
  items?: AgentToolResultItem[];
  data?: JsonObject;
}

/** Who runs a tool: the person who invoked the agent (or the MCP client's person). */
export interface AgentToolInvocation {
  userId: string;
}

/**
 * A tool AI agents may call (001 §3.3). It runs in the plugin's sandbox for one installation,
 * acting as the person who invoked the agent: their access bounds what the plugin's capabilities
 * return. Agents see it as `{pluginId}_{name}`; its input is checked against `input` first.
 */
export interface AgentToolDeclaration<Ctx, Input extends z.ZodType = z.ZodType> {
  /** snake_case, unique within the plugin. */
  name: string;
  /** What the model reads to decide when to call it. */
  description: string;
  input: Input;
  /** `write` tools change something; viewers cannot run them. Default `read`. */
  access?: 'read' | 'write';
  /** Ask the person before running it: the conversation pauses until they answer. */
  needsConfirmation?: boolean;
  execute(ctx: Ctx, input: z.output<Input>, invocation: AgentToolInvocation): Promise<AgentToolAnswer | string>;
}

/**
 * Types a tool: `input` in `execute` follows the `input` schema, and the context is the one
 * `execute` names, e.g. `InstallationContext<'projects:read'>`.
 */
export function defineAgentTool<Ctx, Input extends z.ZodType>(
  tool: AgentToolDeclaration<Ctx, Input>,
): AgentToolDeclaration<Ctx, Input> {
  return tool;
}

/** The JSON Schema of a tool's input, as models and MCP clients read it. */
export function toolInputSchema(input: z.ZodType): JsonObject {
  const json = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

/** What an OAuth exchange gives back: the provider account and its tokens. */
export interface OAuthGrant {
  externalId?: string;
  label?: string;
  tokens: Record<string, string>;
}

/**
 * Connecting an account at the provider. `workspace` flows are started by admins at
 * /settings/integrations and end at /oauth/{plugin}/authorize; `user` flows by anyone at
 * /settings/user/integrations and end at /account/integration/oauth/{plugin}.
 */
export interface OAuthFlow<Base = PluginContext> {
  level: 'workspace' | 'user';
  /** The provider's consent page, carrying `state` and `redirectUri` unchanged. */
  authorizeUrl(params: { state: string; redirectUri: string }, ctx: Base): string;
  /** Swaps the code for tokens (through `ctx.http`). */
  exchange(params: { code: string; redirectUri: string }, ctx: Base): Promise<OAuthGrant>;
}

/** A GraphQL resolver of a plugin: the current workspace's installation and the signed-in person. */
export type PluginResolver<Ctx> = (args: Record<string, unknown>, ctx: Ctx & { viewer: { userId: string } }) => unknown;

/**
 * GraphQL the plugin adds. Its `typeDefs` may `extend type Query` and `extend type Mutation` with
 * fields whose names start with the plugin's id in camelCase (`slackChannels`), and declare `type`,
 * `input` and `enum` definitions whose names start with it in PascalCase (`SlackChannel`). No
 * other type may be declared, extended or named, and no directive used; every field needs its
 * resolver. The plugin's own types resolve from the JSON its resolvers return, field by field.
 * A plugin breaking a rule fails to load, with the reason.
 */
export interface PluginGraphql<Ctx> {
  typeDefs: string;
  query?: Record<string, PluginResolver<Ctx>>;
  mutation?: Record<string, PluginResolver<Ctx>>;
}

/** What a plugin's server part contributes; every member is optional. */
export interface PluginServer<Ctx, Base = PluginContext, Params extends readonly z.ZodType[] = readonly z.ZodType[]> {
  /** Webhooks at fixed paths, for app-level providers that sign with one secret (Slack, Zoom). */
  webhooks?: readonly InboundWebhook<Ctx, Base>[];
  /** A webhook at a URL of each installation's own, verified with that installation's secrets. */
  installationWebhook?: InstallationWebhook<Ctx>;
  jobs?: Readonly<Record<string, PluginJob<Ctx>>>;
  actions?: AutomationActions<Ctx, Params>;
  /** Tools AI agents may call, run as the person who invoked the agent (typed with `defineAgentTool`). */
  tools?: readonly AgentToolDeclaration<Ctx>[];
  oauth?: OAuthFlow<Base>;
  graphql?: PluginGraphql<Ctx>;
  /**
   * Import sources (001 §3.4) people connect to a channel; Fieldbook runs their listings as jobs
   * in batches, with progress, resumption after a crash, refreshes and a sync history.
   */
  importSources?: readonly ImportSourceContribution<Ctx>[];
  /** Runs once when the plugin loads; a throw disables the plugin and leaves the app running. */
  setup?(ctx: Base): void | Promise<void>;
}

type ScopesOf<Perms extends readonly string[]> = Extract<Perms[number], PluginScope>;

/** The shape a plugin is declared in: manifest, settings, configuration and contributions. */
export interface PluginDeclaration<
  Perms extends readonly string[],
  S extends SettingsDeclaration,
  C extends ConfigDeclaration,
  A extends readonly z.ZodType[] = readonly z.ZodType[],
> extends Omit<PluginManifest, 'permissions'> {
  permissions: Perms;
  /** Per-installation settings, filled in by workspace admins. */
  settings?: S;
  /** Operator configuration read from the environment. */
  config?: C;
  server?: PluginServer<InstallationContext<ScopesOf<Perms>, S, C>, PluginContext<C>, A>;
}

/** A validated plugin, as the host loads it. */
export interface PluginDefinition {
  manifest: PluginManifest;
  settings: SettingsDeclaration;
  config: ConfigDeclaration;
  server: PluginServer<InstallationContext<string>>;
}

/**
 * Declares a plugin. The manifest part is validated at once, so a mistake shows when the plugin
 * loads; the context every handler receives is typed from `permissions`, `settings` and `config`.
 */
export function definePlugin<
  const Perms extends readonly string[],
  const S extends SettingsDeclaration = {},
  const C extends ConfigDeclaration = {},
  // Each action's schema, inferred one by one, so that each `execute` gets its own `params` type.
  const A extends readonly z.ZodType[] = [],
>(declaration: PluginDeclaration<Perms, S, C, A>): PluginDefinition {
  const { server, settings, config, ...manifest } = declaration;
  const parsed = parsePluginManifest(manifest);
  checkSdkRange(parsed);
  return {
    manifest: parsed,
    settings: settings ?? {},
    config: config ?? {},
    // The handlers were checked against the narrower context; the host builds exactly that one.
    server: (server ?? {}) as unknown as PluginServer<InstallationContext<string>>,
  };
}

/** Throws unless this SDK's version satisfies the range a plugin declared in `sdk`. */
export function checkSdkRange(manifest: Pick<PluginManifest, 'id' | 'sdk'>): void {
  if (!semver.validRange(manifest.sdk))
    throw new Error(`Invalid plugin manifest:\nsdk: "${manifest.sdk}" is not a version range such as "^1".`);
  if (!semver.satisfies(SDK_VERSION, manifest.sdk)) {
    throw new Error(`The plugin ${manifest.id} needs SDK ${manifest.sdk}; this Fieldbook has SDK ${SDK_VERSION}.`);
  }
}
