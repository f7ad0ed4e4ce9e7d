import type { Knex } from 'knex';
import {
  PluginPermissionError,
  toolInputSchema,
  type AgentToolAnswer,
  type AutomationAction,
  type AutomationTrigger,
  type InstallationContext,
  type JsonObject,
  type NotesReader,
  type NotesWriter,
  type PluginContext,
  type ProjectsReader,
} from '@fieldbook/extensions-sdk/server';
import { withTenant } from '../../db/tenancy.ts';
import { AppError } from '../../errors/app-error.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { Logger } from '../../logger.ts';
import { atLeast } from '../../permissions/levels.ts';
import { markFailed, type LoadedPlugin, type PluginCatalog } from '../catalog/catalog.ts';
import { grantedPermissions, pendingPermissions, recordApprovedPermissions } from '../installations/approval.ts';
import { installations, settingsOf, type InstallationRow } from '../installations/store.ts';
import type { PluginDataPort } from './data-port.ts';
import { guardedHttp, type PluginRequestHook } from './egress.ts';
import { claimEffect, completeEffect, keepClaimed, releaseEffect } from './effects.ts';
import { noteTitle, textToDoc } from './notes.ts';
import { pluginLogger } from './redact.ts';
import { UnapprovedPermissionError } from './unapproved.ts';
import { createDeliveryNotes, type DeliveryNotes, type DeliveryNotesResult } from '../webhooks/notes-batch.ts';
import type { SecretBox } from './secret-box.ts';

export interface PluginHostDeps {
  catalog: PluginCatalog;
  app: Knex;
  /**
   * The owner connection, for job workers only: stored webhook deliveries (raw payloads of every
   * workspace) are out of the application role's reach, so workers read them with this one.
   */
  owner: Knex;
  jobs: JobQueue;
  logger: Logger;
  box: SecretBox;
  publicUrl: string;
  /** A request context for a member, as if they had made the request themselves. */
  memberContext(workspaceId: string, userId: string): Promise<RequestContext>;
  /** The research module's part; null until a module provides it. */
  data(): PluginDataPort | null;
  /** Sees every outbound request of every plugin (the SDK's test host records them). */
  onPluginRequest?: PluginRequestHook;
}

/** Reads one installation context shares among the work it serves (see installationContext). */
interface ContextReads {
  actor?: Promise<RequestContext>;
  enabled?: Promise<Set<string>>;
  projects?: Promise<Array<{ id: string; title: string; enabled: boolean }>>;
}

/** The queue a plugin's job runs on: one per plugin and job, so one slow plugin holds up no other. */
export const pluginJobQueue = (pluginId: string, job: string): string => `plugin.${pluginId}.${job}`;

export interface PluginJobData {
  installationId: string;
  workspaceId: string;
  /** Who the job acts for: the person who queued it, else the one who installed the plugin. */
  actingUserId: string | null;
  data: JsonObject;
}

/**
 * Builds the contexts plugins run in. A capability is present only when the manifest declared its
 * scope; an undeclared one is a getter that throws, so a plugin that casts its way past the types
 * still cannot use it.
 */
export class PluginHost {
  /** What a context made with sharedReads has read, so work given that context reads nothing again. */
  private readonly sharedReads = new WeakMap<object, ContextReads>();

  constructor(readonly deps: PluginHostDeps) {}

  get catalog(): PluginCatalog {
    return this.deps.catalog;
  }

  /** Runs each ready plugin's `setup`; one that throws is marked failed and the rest go on. */
  async start(): Promise<void> {
    await recordApprovedPermissions(this.deps.owner, this.catalog);
    for (const plugin of this.catalog.plugins) {
      if (plugin.state !== 'ready' || !plugin.definition.server.setup) continue;
      try {
        await plugin.definition.server.setup(this.pluginContext(plugin));
      } catch (err) {
        const problem = `Its setup failed: ${err instanceof Error ? err.message : String(err)}`;
        this.deps.logger.error({ plugin: plugin.id, err: problem }, 'a plugin failed to start and is disabled');
        markFailed(plugin, problem);
      }
    }
  }

  /**
   * The plugin's own context, outside any installation (its setup, webhook verification). Within
   * an installation, `permissions` are those it may use there and `pending` those awaiting an
   * admin's approval (installations/approval.ts).
   */
  pluginContext(
    plugin: LoadedPlugin,
    secrets: () => readonly string[] = () => [],
    permissions: readonly string[] = plugin.manifest.permissions,
    pending: readonly string[] = [],
  ): PluginContext {
    const hosts = (list: readonly string[]) =>
      list.filter((p) => p.startsWith('egress:')).map((p) => p.slice('egress:'.length));
    return {
      plugin: { id: plugin.id, version: plugin.manifest.version },
      log: pluginLogger(this.deps.logger, plugin.id, secrets),
      config: plugin.config as PluginContext['config'],
      http: guardedHttp({
        pluginId: plugin.id,
        declaredHosts: hosts(permissions),
        pendingHosts: hosts(pending),
        trustedOrigins: plugin.trustedOrigins,
        onRequest: this.deps.onPluginRequest,
      }),
      publicUrl: this.deps.publicUrl.replace(/\/$/, ''),
    };
  }

  /**
   * Runs a plugin's automation action for a workspace: the parameters are checked against the
   * action's schema first (a clear error, nothing run), then it runs as the installer.
   */
  async runAction(input: {
    pluginId: string;
    workspaceId: string;
    key: string;
    params: unknown;
    trigger: AutomationTrigger;
  }): Promise<{ summary?: string } | void> {
    const plugin = this.catalog.ready(input.pluginId);
    const action = plugin?.definition.server.actions?.find((a) => a.key === input.key);
    if (!plugin || !action)
      throw new AppError('NOT_FOUND', `The action ${input.key} of ${input.pluginId} is not available.`);
    const parsed = action.parameters.safeParse(input.params);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError('BAD_USER_INPUT', `${action.title}: ${issue.message}`, {
        field: ['params', ...issue.path.map(String)].join('.'),
      });
    }
    const row = await this.inWorkspace(input.workspaceId, (trx) =>
      installations(trx).where({ plugin_id: plugin.id }).first(),
    );
    if (!row) throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} is not installed in this workspace.`);
    return action.execute(this.installationContext(plugin, row), parsed.data, input.trigger);
  }

  /** Every ready plugin's automation actions, for the automation editor and for checks on save. */
  automationActions(): Array<{
    pluginId: string;
    pluginName: string;
    key: string;
    title: string;
    description?: string;
    parameters: AutomationAction<unknown>['parameters'];
  }> {
    return this.catalog.plugins
      .filter((p) => p.state === 'ready')
      .flatMap((p) =>
        (p.definition.server.actions ?? []).map((a) => ({
          pluginId: p.id,
          pluginName: p.manifest.name,
          key: a.key,
          title: a.title,
          description: a.description,
          parameters: a.parameters,
        })),
      );
  }

  /**
   * Every ready plugin's agent tools, with their input's JSON Schema (worked out inside the
   * sandbox for sandboxed plugins). The agents module names them `{pluginId}_{name}`.
   */
  agentTools(): Array<{
    pluginId: string;
    pluginName: string;
    name: string;
    description: string;
    access: 'read' | 'write';
    needsConfirmation: boolean;
    inputSchema: JsonObject;
  }> {
    return this.catalog.plugins
      .filter((p) => p.state === 'ready')
      .flatMap((p) =>
        (p.definition.server.tools ?? []).map((t) => ({
          pluginId: p.id,
          pluginName: p.manifest.name,
          name: t.name,
          description: t.description,
          access: t.access ?? 'read',
          needsConfirmation: Boolean(t.needsConfirmation),
          inputSchema: ((t as { inputSchema?: JsonObject }).inputSchema ?? toolInputSchema(t.input)) as JsonObject,
        })),
      );
  }

  /**
   * Runs a plugin's agent tool for a person: the input is checked against the tool's schema first
   * (BAD_USER_INPUT naming the field, nothing run), then it runs for the workspace's installation
   * acting as that person, so their access bounds what it reads and writes.
   */
  async runTool(input: {
    pluginId: string;
    workspaceId: string;
    userId: string;
    name: string;
    input: unknown;
  }): Promise<AgentToolAnswer> {
    const plugin = this.catalog.ready(input.pluginId);
    const tool = plugin?.definition.server.tools?.find((t) => t.name === input.name);
    if (!plugin || !tool)
      throw new AppError('NOT_FOUND', `The tool ${input.name} of ${input.pluginId} is not available.`);
    const parsed = tool.input.safeParse(input.input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.') || 'input';
      throw new AppError('BAD_USER_INPUT', `${field}: ${issue.message}`, { field });
    }
    const row = await this.inWorkspace(input.workspaceId, (trx) =>
      installations(trx).where({ plugin_id: plugin.id }).first(),
    );
    if (!row) throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} is not installed in this workspace.`);
    // What a tool may do is decided by what it does, not by what it says: a tool declared `read`
    // runs without asking the person, so the first change it tries stops it, and the call fails
    // even if the plugin catches the refusal and answers as if all went well.
    let stopped: AppError | null = null;
    const refuseWrite =
      (tool.access ?? 'read') === 'read'
        ? (what: string): never => {
            stopped ??= new AppError(
              'FORBIDDEN',
              `${plugin.manifest.name}’s tool ${tool.name} says it only reads, so it may not ${what}; it was stopped there.`,
            );
            throw stopped;
          }
        : undefined;
    const ctx = this.installationContext(plugin, row, input.userId, { refuseWrite });
    let answer: AgentToolAnswer | string;
    try {
      answer = await tool.execute(ctx, parsed.data, { userId: input.userId });
    } catch (err) {
      throw stopped ?? err;
    }
    if (stopped) throw stopped;
    return typeof answer === 'string' ? { text: answer } : answer;
  }

  /** True when the workspace has installed the plugin. */
  async isInstalled(workspaceId: string, pluginId: string): Promise<boolean> {
    return Boolean(
      await this.inWorkspace(workspaceId, (trx) => installations(trx).where({ plugin_id: pluginId }).first()),
    );
  }

  /** Runs `fn` scoped to an installation's workspace, as the system (no member). */
  inWorkspace<T>(workspaceId: string, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return withTenant(this.deps.app, { workspaceId }, fn);
  }

  /**
   * The context of work for one installation. It acts as the member who installed the plugin,
   * or as `actingUserId` when a person is at the keyboard (the plugin's GraphQL fields): their
   * access bounds what the plugin can do, and their own connected account is theirs alone.
   */
  installationContext(
    plugin: LoadedPlugin,
    row: InstallationRow,
    actingUserId: string | null = row.installed_by,
    options: {
      sharedReads?: boolean;
      /** Set for work that may only read (a `read` agent tool): each change it tries calls this, which throws. */
      refuseWrite?: (what: string) => never;
    } = {},
  ): InstallationContext<string> {
    const refuseWrite = options.refuseWrite;
    // With sharedReads, one context serves a batch of work (webhook deliveries handled together):
    // the member it acts as and the projects the plugin is enabled on are read once for it.
    const reads: ContextReads | null = options.sharedReads ? {} : null;
    const settings = settingsOf(row, this.deps.box);
    const tokens = this.deps.box.open(row.connection_tokens);
    const secretValues = () => [...Object.values(this.deps.box.open(row.secrets)), ...Object.values(tokens)];
    const granted = grantedPermissions(plugin, row);
    const pending = pendingPermissions(plugin, row);
    const base = this.pluginContext(plugin, secretValues, granted, pending);
    const ctx = {
      ...base,
      installation: {
        id: row.id,
        workspaceId: row.workspace_id,
        settings,
        connection:
          row.external_id || row.connection_tokens
            ? { externalId: row.external_id, label: row.connection_label, tokens }
            : null,
      },
      jobs: {
        send: async (
          name: string,
          data: JsonObject,
          options?: { singletonKey?: string; startAfterSeconds?: number },
        ) => {
          refuseWrite?.('queue background work');
          if (!plugin.definition.server.jobs?.[name])
            throw new Error(`The plugin ${plugin.id} has no job named ${name}.`);
          const payload: PluginJobData = { installationId: row.id, workspaceId: row.workspace_id, actingUserId, data };
          await this.deps.jobs.send(pluginJobQueue(plugin.id, name), payload, options);
        },
      },
      saveConnectionTokens: async (next: Record<string, string>) => {
        await this.inWorkspace(row.workspace_id, (trx) =>
          installations(trx)
            .where({ id: row.id })
            .update({ connection_tokens: this.deps.box.seal(next), updated_at: new Date() }),
        );
      },
      userConnection: async () => {
        if (!actingUserId) return null;
        const found = await withTenant(this.deps.app, { workspaceId: row.workspace_id, userId: actingUserId }, (trx) =>
          trx('plugin_user_connections')
            .where({ plugin_id: plugin.id, user_id: actingUserId })
            .first<{ external_id: string | null; label: string | null; tokens: string } | undefined>(),
        );
        return found
          ? { externalId: found.external_id, label: found.label, tokens: this.deps.box.open(found.tokens) }
          : null;
      },
      saveUserConnectionTokens: async (next: Record<string, string>) => {
        if (!actingUserId) throw new Error('No person to save a connection for.');
        await withTenant(this.deps.app, { workspaceId: row.workspace_id, userId: actingUserId }, (trx) =>
          trx('plugin_user_connections')
            .where({ plugin_id: plugin.id, user_id: actingUserId })
            .update({ tokens: this.deps.box.seal(next) }),
        );
      },
      disconnect: async () => {
        refuseWrite?.('disconnect its account');
        await this.inWorkspace(row.workspace_id, (trx) =>
          installations(trx)
            .where({ id: row.id })
            .update({ external_id: null, connection_label: null, connection_tokens: null, updated_at: new Date() }),
        );
      },
    };
    const access = { plugin, granted, pending };
    this.attach(ctx, access, 'notes', ['notes:write', 'notes:read'], () =>
      this.notes(plugin, row, actingUserId, reads, refuseWrite),
    );
    this.attach(ctx, access, 'projects', ['projects:read'], () => this.projects(plugin, row, actingUserId, reads));
    if (reads) this.sharedReads.set(ctx, reads);
    return ctx as unknown as InstallationContext<string>;
  }

  /**
   * A batch of webhook deliveries' notes, made in one transaction as the member the plugin acts
   * for (webhooks/notes-batch.ts). Each draft is held to what `ctx.notes.create` requires: the
   * plugin may write notes and is enabled on the draft's project; otherwise the whole batch is
   * refused and its deliveries go to `handle` one by one.
   */
  async webhookNotes(
    plugin: LoadedPlugin,
    row: InstallationRow,
    items: readonly DeliveryNotes[],
    context?: InstallationContext<string>,
  ): Promise<DeliveryNotesResult> {
    this.requireGranted(plugin, row, 'notes:write');
    // The batch's context already read its member and enabled projects: read once per batch, not twice.
    const reads = (context && this.sharedReads.get(context)) ?? null;
    const enabled = await this.enabledProjects(row, reads);
    if (items.some((item) => item.notes.some((n) => !enabled.has(n.projectId)))) {
      throw new AppError('FORBIDDEN', `${plugin.manifest.name} is not enabled on that project.`, {
        field: 'projectId',
      });
    }
    return createDeliveryNotes({
      port: this.port(),
      actor: await this.actor(row, row.installed_by, reads),
      pluginId: plugin.id,
      workspaceId: row.workspace_id,
      items,
    });
  }

  /** Throws unless the installation may use `scope`: its plugin declares it and an admin approved it. */
  private requireGranted(plugin: LoadedPlugin, row: InstallationRow, scope: string): void {
    if (grantedPermissions(plugin, row).includes(scope)) return;
    throw pendingPermissions(plugin, row).includes(scope)
      ? new UnapprovedPermissionError(plugin.id, scope)
      : new PluginPermissionError(plugin.id, scope);
  }

  private attach(
    target: object,
    access: { plugin: LoadedPlugin; granted: readonly string[]; pending: readonly string[] },
    name: string,
    scopes: readonly string[],
    build: () => object,
  ): void {
    const granted = scopes.some((s) => access.granted.includes(s));
    const waiting = scopes.find((s) => access.pending.includes(s));
    Object.defineProperty(target, name, {
      enumerable: granted,
      get: granted
        ? build
        : () => {
            throw waiting
              ? new UnapprovedPermissionError(access.plugin.id, waiting)
              : new PluginPermissionError(access.plugin.id, scopes[0]!);
          },
    });
  }

  /** The member the plugin acts as: their access bounds what it can do. */
  private actor(
    row: InstallationRow,
    userId: string | null,
    reads: ContextReads | null = null,
  ): Promise<RequestContext> {
    if (reads?.actor) return reads.actor;
    const actor = userId
      ? this.deps.memberContext(row.workspace_id, userId)
      : Promise.reject(
          new AppError('FORBIDDEN', 'The person who installed this plugin has left the workspace; install it again.'),
        );
    if (reads) reads.actor = actor;
    return actor;
  }

  private port(): PluginDataPort {
    const port = this.deps.data();
    if (!port) throw new Error('No module provides plugin data access.');
    return port;
  }

  private enabledProjects(row: InstallationRow, reads: ContextReads | null = null): Promise<Set<string>> {
    if (reads?.enabled) return reads.enabled;
    const enabled = this.inWorkspace(row.workspace_id, (trx) =>
      trx('plugin_project_enablements')
        .where({ plugin_id: row.plugin_id })
        .select<Array<{ project_id: string }>>('project_id'),
    ).then((rows) => new Set(rows.map((r) => r.project_id)));
    if (reads) reads.enabled = enabled;
    return enabled;
  }

  private notes(
    plugin: LoadedPlugin,
    row: InstallationRow,
    actingUserId: string | null,
    reads: ContextReads | null,
    refuseWrite?: (what: string) => never,
  ): NotesWriter & NotesReader {
    const require = (scope: string) => this.requireGranted(plugin, row, scope);
    return {
      create: async (draft) => {
        require('notes:write');
        refuseWrite?.('create notes');
        if (!(await this.enabledProjects(row, reads)).has(draft.projectId)) {
          throw new AppError('FORBIDDEN', `${plugin.manifest.name} is not enabled on that project.`, {
            field: 'projectId',
          });
        }
        const actor = await this.actor(row, actingUserId, reads);
        const inWorkspace = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => this.inWorkspace(row.workspace_id, fn);
        if (draft.key) {
          const claim = await claimEffect(inWorkspace, row.workspace_id, plugin.id, draft.key);
          if (!claim.claimed) {
            const existing = await this.port().getNote(actor, claim.objectId);
            if (existing)
              return {
                id: existing.id,
                projectId: existing.projectId,
                title: existing.title,
                path: `/data/${existing.id}`,
                created: false,
              };
            // The note it made was deleted since: the key is the caller's again.
          }
        }
        const stopKeeping = draft.key ? keepClaimed(inWorkspace, plugin.id, draft.key) : () => undefined;
        let note: { id: string; projectId: string; title: string };
        try {
          const level = await this.port().projectLevel(actor, draft.projectId);
          if (!level || !atLeast(level, 'write'))
            throw new AppError('FORBIDDEN', 'The person who installed this plugin cannot write in that project.', {
              field: 'projectId',
            });
          const content = draft.content ?? textToDoc(draft.text ?? '');
          note = await this.port().createNote(actor, {
            projectId: draft.projectId,
            title: noteTitle(draft.title),
            content,
          });
        } catch (err) {
          stopKeeping();
          if (draft.key) await releaseEffect(inWorkspace, plugin.id, draft.key);
          throw err;
        }
        stopKeeping();
        if (draft.key) await completeEffect(inWorkspace, plugin.id, draft.key, note.id);
        return { ...note, path: `/data/${note.id}`, created: true };
      },
      get: async (noteId) => {
        require('notes:read');
        const note = await this.port().getNote(await this.actor(row, actingUserId, reads), noteId);
        if (!note || !(await this.enabledProjects(row, reads)).has(note.projectId)) return null;
        return { ...note, path: `/data/${note.id}` };
      },
    };
  }

  private projects(
    _plugin: LoadedPlugin,
    row: InstallationRow,
    actingUserId: string | null,
    reads: ContextReads | null,
  ): ProjectsReader {
    return {
      list: async () => {
        const listed =
          reads?.projects ??
          Promise.all([
            this.actor(row, actingUserId, reads).then((a) => this.port().listProjects(a)),
            this.enabledProjects(row, reads),
          ]).then(([projects, enabled]) => projects.map((p) => ({ ...p, enabled: enabled.has(p.id) })));
        if (reads) reads.projects = listed;
        return (await listed).map((p) => ({ ...p }));
      },
    };
  }
}
