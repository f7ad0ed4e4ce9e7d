import type { PluginScope } from './scopes.ts';
import type { ConfigDeclaration, ConfigValues, SettingsDeclaration, SettingsValues } from './settings.ts';

/** JSON as jobs and stored events carry it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Logging a plugin may do; every line carries the plugin's id and never its secrets. */
export interface PluginLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Outbound HTTP. Only the hosts a plugin declared (`egress:slack.com`) and the base URLs its
 * operator configured may be called; private and loopback addresses are refused unless the
 * operator configured them. Anything else throws {@link PluginPermissionError}.
 */
export interface PluginHttp {
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
}

/** Queues one of the plugin's own jobs for this installation (at least once: handlers are idempotent). */
export interface PluginJobs {
  send(name: string, data: JsonObject, options?: { singletonKey?: string; startAfterSeconds?: number }): Promise<void>;
}

/** Rich text as the note editor stores it (a ProseMirror document). */
export interface RichTextDoc {
  type: 'doc';
  content: JsonValue[];
}

export interface NoteDraft {
  /** A project the plugin is enabled on. */
  projectId: string;
  /** At most 200 characters; longer titles are cut. */
  title: string;
  /** Plain text: paragraphs split on blank lines. Give this or `content`. */
  text?: string;
  content?: RichTextDoc;
  /**
   * Makes the call idempotent: a second call with the same key returns the note the first made
   * (e.g. the provider's message or recording id).
   */
  key?: string;
}

export interface PluginNote {
  id: string;
  projectId: string;
  title: string;
  /** The note's path in the app, e.g. `/data/<id>`. */
  path: string;
}

export interface NotesWriter {
  /**
   * Creates a note as the acting member (the person using the plugin's GraphQL fields, else the
   * one who installed it); `created` is false for a repeated key.
   */
  create(draft: NoteDraft): Promise<PluginNote & { created: boolean }>;
}

export interface NotesReader {
  /** A note in a project the plugin is enabled on, or null. */
  get(noteId: string): Promise<(PluginNote & { text: string }) | null>;
}

export interface PluginProject {
  id: string;
  title: string;
  /** Whether a project manager enabled the plugin on this project. */
  enabled: boolean;
}

export interface ProjectsReader {
  /** The workspace's projects the installer can read, with whether the plugin is enabled on each. */
  list(): Promise<PluginProject[]>;
}

/** The capabilities a set of scopes grants; a scope not declared leaves its capability out. */
export type Capabilities<P extends string> = ('notes:write' extends P
  ? { notes: NotesWriter & ('notes:read' extends P ? NotesReader : unknown) }
  : 'notes:read' extends P
    ? { notes: NotesReader }
    : unknown) &
  ('projects:read' extends P ? { projects: ProjectsReader } : unknown);

/** What every part of a plugin receives, whether or not a workspace is involved. */
export interface PluginContext<C extends ConfigDeclaration = ConfigDeclaration> {
  plugin: { id: string; version: string };
  log: PluginLogger;
  /** Operator configuration (environment), as the plugin's `config` declared it. */
  config: ConfigValues<C>;
  http: PluginHttp;
  /** The public origin of this Fieldbook, e.g. `https://research.example.com` (for redirect URIs). */
  publicUrl: string;
}

/** An account at the provider, connected through the plugin's OAuth flow. */
export interface PluginConnection {
  /** The provider's id of the account (Slack team id, Zoom account id). */
  externalId: string | null;
  /** How people recognise the account, e.g. the Slack workspace's name. */
  label: string | null;
  /** Tokens, decrypted for the plugin; stored encrypted at rest. */
  tokens: Readonly<Record<string, string>>;
}

/** One workspace's installation of the plugin. */
export interface PluginInstallation<S extends SettingsDeclaration = SettingsDeclaration> {
  id: string;
  workspaceId: string;
  settings: SettingsValues<S>;
  /** The workspace's connected account, when the plugin has a workspace OAuth flow and it ran. */
  connection: PluginConnection | null;
}

/** The context of work done for one installation: webhooks, jobs, actions and GraphQL fields. */
export type InstallationContext<
  P extends string = PluginScope,
  S extends SettingsDeclaration = SettingsDeclaration,
  C extends ConfigDeclaration = ConfigDeclaration,
> = PluginContext<C> &
  Capabilities<P> & {
    installation: PluginInstallation<S>;
    jobs: PluginJobs;
    /** Replaces the tokens of the workspace's connection (after a token refresh). */
    saveConnectionTokens(tokens: Record<string, string>): Promise<void>;
    /** The acting person's own connected account (plugins with a `user` OAuth flow), or null. */
    userConnection(): Promise<PluginConnection | null>;
    /** Replaces the tokens of the acting person's connection (after a token refresh). */
    saveUserConnectionTokens(tokens: Record<string, string>): Promise<void>;
    /** Forgets the connected account and its tokens; webhooks for it are ignored from then on. */
    disconnect(): Promise<void>;
  };

/** Thrown when a plugin uses a capability or host its manifest did not declare. */
export class PluginPermissionError extends Error {
  constructor(
    readonly pluginId: string,
    readonly permission: string,
  ) {
    super(`The plugin ${pluginId} did not declare the permission ${permission}.`);
    this.name = 'PluginPermissionError';
  }
}

/** What a {@link PluginInputError} is about, as the API reports it. */
export type PluginInputErrorCode = 'BAD_USER_INPUT' | 'INVALID_OPERATION' | 'FORBIDDEN' | 'NOT_FOUND';

/**
 * An error meant for the person using a plugin's GraphQL field: the host answers it with this
 * code, the message shown as is, and the input `field` it is about. Any other error a plugin
 * throws reaches people as a generic failure (and the logs with its detail).
 */
export class PluginInputError extends Error {
  constructor(
    message: string,
    readonly options: { field?: string; code?: PluginInputErrorCode } = {},
  ) {
    super(message);
    this.name = 'PluginInputError';
  }
}
