import { z } from 'zod';
import { recordAudit } from '../../audit/audit-log.ts';
import { AppError, forbidden, notFound } from '../../errors/app-error.ts';
import { validate } from '../../errors/validate.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { atLeast } from '../../permissions/levels.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import type { PluginHost } from '../runtime/host.ts';
import { hasInstallationWebhook, newWebhookKey } from '../webhooks/keys.ts';
import { findInstallation, installations, mergeSettings, type InstallationRow } from './store.ts';

const pluginIdArgs = z.object({ pluginId: z.string().min(1).max(50) });
const settingValue = z.object({
  key: z.string().min(1).max(100),
  text: z.string().max(20000).nullish(),
  flag: z.boolean().nullish(),
});
const settingsArgs = pluginIdArgs.extend({ settings: z.array(settingValue).max(100).nullish() });
const projectArgs = pluginIdArgs.extend({
  projectId: z.string().uuid('projectId must be a project id.'),
  enabled: z.boolean(),
});

/** The form's list of values as the settings object a plugin declared. */
function settingsInput(values: z.infer<typeof settingValue>[] | null | undefined): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const v of values ?? []) {
    if (v.flag !== null && v.flag !== undefined) out[v.key] = v.flag;
    else if (v.text !== null && v.text !== undefined) out[v.key] = v.text;
  }
  return out;
}

function installable(host: PluginHost, pluginId: string): LoadedPlugin {
  const plugin = host.catalog.get(pluginId);
  if (!plugin) throw notFound('That plugin');
  if (plugin.state !== 'ready')
    throw new AppError('INVALID_OPERATION', plugin.problem ?? `${plugin.manifest.name} cannot be used right now.`, {
      field: 'pluginId',
    });
  return plugin;
}

/**
 * Every project a submitted setting names must be one the admin can read in this workspace: the
 * schema checks only that it looks like an id, and another workspace's project id is an id too.
 */
async function assertProjectsReadable(
  host: PluginHost,
  ctx: RequestContext,
  plugin: LoadedPlugin,
  submitted: Record<string, string | boolean>,
): Promise<void> {
  for (const [key, field] of Object.entries(plugin.definition.settings)) {
    const projectId = submitted[key];
    if (field.kind !== 'project' || typeof projectId !== 'string' || projectId === '') continue;
    const port = host.deps.data();
    const level = port ? await port.projectLevel(ctx, projectId) : null;
    if (!level || !atLeast(level, 'read'))
      throw new AppError('BAD_USER_INPUT', `${field.label} must be a project of this workspace.`, {
        field: `settings.${key}`,
      });
  }
}

/** Workspace admins install a plugin with its settings; the plan's cap on extensions applies. */
export async function installPlugin(
  host: PluginHost,
  maximum: number | null,
  ctx: RequestContext,
  args: unknown,
): Promise<InstallationRow> {
  const { pluginId, settings } = validate(settingsArgs, args);
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  const plugin = installable(host, pluginId);
  const merged = mergeSettings(plugin.definition.settings, settingsInput(settings), null, host.deps.box);
  await assertProjectsReadable(host, ctx, plugin, merged.settings);
  return ctx.tx(async (trx) => {
    if (await findInstallation(trx, pluginId))
      throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} is already installed.`, { field: 'pluginId' });
    if (maximum !== null) {
      // Counted under a lock on the workspace row, so two installs at once cannot both pass the cap.
      await trx.raw('select 1 from workspaces where id = ? for update', [workspace.id]);
      const counted = await installations(trx).count<Array<{ count: number }>>('* as count');
      if (Number(counted[0]?.count ?? 0) >= maximum) {
        throw new AppError(
          'INVALID_OPERATION',
          `This workspace can have at most ${maximum} extensions installed. Remove one, or change plan for more.`,
          { field: 'maximumExtensions' },
        );
      }
    }
    const [row] = await installations(trx)
      .insert({
        workspace_id: workspace.id,
        plugin_id: pluginId,
        settings: merged.settings,
        secrets: merged.secrets,
        installed_by: viewer.userId,
        // The admin saw what this version asks for when installing it.
        approved_permissions: [...plugin.manifest.permissions],
        ...(hasInstallationWebhook(plugin) ? newWebhookKey(host.deps.box) : {}),
      })
      .returning('*');
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'INTEGRATION_CHANGE',
      subjectType: 'plugin',
      subjectId: pluginId,
      metadata: { action: 'installed' },
    });
    return row!;
  });
}

export async function updatePluginSettings(
  host: PluginHost,
  ctx: RequestContext,
  args: unknown,
): Promise<InstallationRow> {
  const { pluginId, settings } = validate(settingsArgs, args);
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  const plugin = installable(host, pluginId);
  return ctx.tx(async (trx) => {
    const stored = await findInstallation(trx, pluginId);
    if (!stored) throw notFound(`${plugin.manifest.name}’s installation`);
    const merged = mergeSettings(plugin.definition.settings, settingsInput(settings), stored, host.deps.box);
    await assertProjectsReadable(host, ctx, plugin, settingsInput(settings));
    const [row] = await installations(trx)
      .where({ id: stored.id })
      .update({ settings: merged.settings, secrets: merged.secrets, updated_at: new Date() })
      .returning('*');
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'INTEGRATION_CHANGE',
      subjectType: 'plugin',
      subjectId: pluginId,
      metadata: { action: 'settings changed', keys: Object.keys(settingsInput(settings)) },
    });
    return row!;
  });
}

/**
 * Workspace admins give the installation a new webhook URL, e.g. when the old one leaked: the old
 * key's hash is replaced in the same statement, so it finds nothing from the moment this commits.
 */
export async function rotatePluginWebhookKey(
  host: PluginHost,
  ctx: RequestContext,
  args: unknown,
): Promise<InstallationRow> {
  const { pluginId } = validate(pluginIdArgs, args);
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  const plugin = host.catalog.get(pluginId);
  if (!plugin) throw notFound('That plugin');
  if (!hasInstallationWebhook(plugin))
    throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} receives no webhooks at a URL of its own.`, {
      field: 'pluginId',
    });
  return ctx.tx(async (trx) => {
    const stored = await findInstallation(trx, pluginId);
    if (!stored) throw notFound(`${plugin.manifest.name}’s installation`);
    const [row] = await installations(trx)
      .where({ id: stored.id })
      .update({ ...newWebhookKey(host.deps.box), updated_at: new Date() })
      .returning('*');
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'INTEGRATION_CHANGE',
      subjectType: 'plugin',
      subjectId: pluginId,
      metadata: { action: 'webhook URL rotated' },
    });
    return row!;
  });
}

/** Removes the installation with its tokens, project enablements and people's connections. */
export async function uninstallPlugin(ctx: RequestContext, args: unknown): Promise<boolean> {
  const { pluginId } = validate(pluginIdArgs, args);
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  return ctx.tx(async (trx) => {
    const removed = await installations(trx).where({ plugin_id: pluginId }).delete();
    if (!removed) throw notFound('That installation');
    await trx('plugin_project_enablements').where({ plugin_id: pluginId }).delete();
    await trx('plugin_user_connections').where({ plugin_id: pluginId }).delete();
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'INTEGRATION_CHANGE',
      subjectType: 'plugin',
      subjectId: pluginId,
      metadata: { action: 'uninstalled' },
    });
    return true;
  });
}

/** Project managers (full access to the project) turn an installed plugin on or off for it. */
export async function setProjectPluginEnabled(
  host: PluginHost,
  ctx: RequestContext,
  args: unknown,
): Promise<{ pluginId: string; projectId: string; enabled: boolean }> {
  const { pluginId, projectId, enabled } = validate(projectArgs, args);
  const { viewer } = ctx.authorize('projects:read');
  const port = host.deps.data();
  const level = port ? await port.projectLevel(ctx, projectId) : null;
  if (!level) throw notFound('That project');
  if (!atLeast(level, 'full')) throw forbidden('Only the project’s managers can change its extensions.');
  await ctx.tx(async (trx) => {
    if (!(await findInstallation(trx, pluginId)))
      throw new AppError('INVALID_OPERATION', 'Ask a workspace admin to install this plugin first.', {
        field: 'pluginId',
      });
    if (enabled) {
      await trx('plugin_project_enablements')
        .insert({
          workspace_id: ctx.workspace!.id,
          project_id: projectId,
          plugin_id: pluginId,
          enabled_by: viewer.userId,
        })
        .onConflict(['project_id', 'plugin_id'])
        .ignore();
    } else {
      await trx('plugin_project_enablements').where({ project_id: projectId, plugin_id: pluginId }).delete();
    }
  });
  return { pluginId, projectId, enabled };
}

/** Admins forget the workspace's connected account; webhooks for it are ignored from then on. */
export async function disconnectIntegration(ctx: RequestContext, args: unknown): Promise<boolean> {
  const { pluginId } = validate(pluginIdArgs, args);
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  return ctx.tx(async (trx) => {
    const updated = await installations(trx)
      .where({ plugin_id: pluginId })
      .update({ external_id: null, connection_label: null, connection_tokens: null, updated_at: new Date() });
    if (!updated) throw notFound('That installation');
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'INTEGRATION_CHANGE',
      subjectType: 'plugin',
      subjectId: pluginId,
      metadata: { action: 'disconnected' },
    });
    return true;
  });
}

export async function disconnectMyIntegration(ctx: RequestContext, args: unknown): Promise<boolean> {
  const { pluginId } = validate(pluginIdArgs, args);
  const { viewer } = ctx.authorize('profile:update');
  return ctx.tx(
    async (trx) =>
      (await trx('plugin_user_connections').where({ plugin_id: pluginId, user_id: viewer.userId }).delete()) > 0,
  );
}
