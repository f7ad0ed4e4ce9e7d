import { z } from 'zod';
import { remoteName } from '@fieldbook/extensions-sdk/server';
import { validate } from '../../errors/validate.ts';
import { notFound } from '../../errors/app-error.ts';
import { operations } from '../../graphql/operations.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { ModuleGraphql } from '../../kernel/module.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { startAuthorization } from '../oauth/flow.ts';
import { approvePluginPermissions } from '../installations/approval.ts';
import {
  disconnectIntegration,
  disconnectMyIntegration,
  installPlugin,
  rotatePluginWebhookKey,
  setProjectPluginEnabled,
  uninstallPlugin,
  updatePluginSettings,
} from '../installations/service.ts';
import { installations, type InstallationRow } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';
import { ensureWebhookKeys } from '../webhooks/keys.ts';
import { extensionsTypeDefs } from './schema.ts';
import { installationView as viewOfInstallation, loadFailureView, pluginView, type PluginView } from './views.ts';

const isAdmin = (ctx: RequestContext) =>
  ctx.membership?.workspaceAdmin === true || ctx.membership?.effectiveRole === 'WORKSPACE_ADMIN';

/**
 * The web remote of a plugin, served from its built folder or named by its manifest, with the
 * slots it fills (null when it did not say: the app then loads it with every workspace page).
 */
function remoteOf(plugin: LoadedPlugin) {
  const entry = plugin.webDir ? `/plugins/${plugin.id}/web/mf-manifest.json` : plugin.manifest.web?.entry;
  if (!entry) return null;
  return {
    name: remoteName(plugin.id),
    entry,
    exposedModule: plugin.manifest.web?.exposes ?? './extension',
    slots: plugin.manifest.web?.slots ?? null,
  };
}

export function extensionsGraphql(host: PluginHost, maximum: number | null): ModuleGraphql {
  const { box, publicUrl } = host.deps;
  const installationView = (plugin: LoadedPlugin, row: InstallationRow, b: typeof box, enabled: number) =>
    viewOfInstallation(plugin, row, b, enabled, publicUrl);

  async function installed(ctx: RequestContext): Promise<Array<{ row: InstallationRow; enabled: number }>> {
    return ctx.tx(async (trx) => {
      const rows = await ensureWebhookKeys(
        trx,
        await installations(trx).select('*'),
        (id) => host.catalog.get(id),
        box,
      );
      const counts = await trx('plugin_project_enablements')
        .select('plugin_id')
        .count<Array<{ plugin_id: string; count: number }>>('* as count')
        .groupBy('plugin_id');
      const byPlugin = new Map(counts.map((c) => [c.plugin_id, Number(c.count)]));
      return rows.map((row) => ({ row, enabled: byPlugin.get(row.plugin_id) ?? 0 }));
    });
  }

  async function viewOf(ctx: RequestContext, pluginId: string): Promise<PluginView> {
    const plugin = host.catalog.get(pluginId);
    if (!plugin) throw notFound('That plugin');
    const found = (await installed(ctx)).find((i) => i.row.plugin_id === pluginId);
    return pluginView(plugin, found ? installationView(plugin, found.row, box, found.enabled) : null, isAdmin(ctx));
  }

  async function listPlugins(ctx: RequestContext): Promise<PluginView[]> {
    ctx.authorize('members:read');
    const rows = new Map((await installed(ctx)).map((i) => [i.row.plugin_id, i]));
    return host.catalog.plugins.map((plugin) => {
      const i = rows.get(plugin.id);
      return pluginView(plugin, i ? installationView(plugin, i.row, box, i.enabled) : null, isAdmin(ctx));
    });
  }

  const projectArgs = z.object({ projectId: z.string().uuid('projectId must be a project id.') });

  async function projectPlugins(ctx: RequestContext, args: unknown) {
    const { projectId } = validate(projectArgs, args);
    ctx.authorize('projects:read');
    const level = await host.deps.data()?.projectLevel(ctx, projectId);
    if (!level) throw notFound('That project');
    const rows = await installed(ctx);
    const enabled = new Set(
      (
        await ctx.tx((trx) =>
          trx('plugin_project_enablements')
            .where({ project_id: projectId })
            .select<Array<{ plugin_id: string }>>('plugin_id'),
        )
      ).map((r) => r.plugin_id),
    );
    return rows.flatMap(({ row, enabled: count }) => {
      const plugin = host.catalog.get(row.plugin_id);
      if (!plugin) return [];
      return [
        {
          plugin: pluginView(plugin, installationView(plugin, row, box, count), isAdmin(ctx)),
          projectId,
          enabled: enabled.has(row.plugin_id),
        },
      ];
    });
  }

  async function pluginRemotes(ctx: RequestContext, args: { projectId?: string | null }) {
    ctx.requireViewer();
    if (!ctx.workspace || !ctx.membership) return [];
    const ids = args.projectId
      ? (await projectPlugins(ctx, { projectId: args.projectId })).filter((p) => p.enabled).map((p) => p.plugin.id)
      : (await installed(ctx)).map((i) => i.row.plugin_id);
    return ids.flatMap((id) => {
      const plugin = host.catalog.ready(id);
      const remote = plugin && remoteOf(plugin);
      return remote ? [remote] : [];
    });
  }

  async function myIntegrations(ctx: RequestContext) {
    const { viewer } = ctx.authorize('profile:read');
    const installedIds = new Set((await installed(ctx)).map((i) => i.row.plugin_id));
    const mine = await ctx.tx((trx) =>
      trx('plugin_user_connections')
        .where({ user_id: viewer.userId })
        .select<Array<{ plugin_id: string; external_id: string | null; label: string | null }>>(
          'plugin_id',
          'external_id',
          'label',
        ),
    );
    return host.catalog.plugins
      .filter((p) => p.definition.server.oauth?.level === 'user' && installedIds.has(p.id))
      .map((plugin) => {
        const c = mine.find((m) => m.plugin_id === plugin.id);
        return {
          plugin: pluginView(plugin, null, false),
          connectedAccount: c ? { externalId: c.external_id, label: c.label } : null,
        };
      });
  }

  return {
    typeDefs: extensionsTypeDefs,
    resolvers: {
      Query: operations({
        plugins: (ctx) => listPlugins(ctx),
        extensionLimits: async (ctx) => {
          ctx.authorize('members:read');
          return { installed: (await installed(ctx)).length, maximum };
        },
        projectPlugins,
        pluginRemotes: (ctx, args) => pluginRemotes(ctx, args as { projectId?: string | null }),
        myIntegrations: (ctx) => myIntegrations(ctx),
        pluginLoadFailures: (ctx) => {
          // The permission installing needs: what failed and why is for those who install (and names server folders).
          ctx.authorize('workspace:admin');
          return host.catalog.broken.map(loadFailureView);
        },
      }),
      Mutation: operations({
        installPlugin: async (ctx, args) => viewOf(ctx, (await installPlugin(host, maximum, ctx, args)).plugin_id),
        updatePluginSettings: async (ctx, args) => viewOf(ctx, (await updatePluginSettings(host, ctx, args)).plugin_id),
        uninstallPlugin: (ctx, args) => uninstallPlugin(ctx, args),
        setProjectPluginEnabled: async (ctx, args) => {
          const result = await setProjectPluginEnabled(host, ctx, args);
          return { ...result, plugin: await viewOf(ctx, result.pluginId) };
        },
        startIntegrationAuthorization: (ctx, args) =>
          startAuthorization(host, ctx, args as { pluginId: string; source: string; origin?: string | null }),
        disconnectIntegration: async (ctx, args) => {
          await disconnectIntegration(ctx, args);
          return viewOf(ctx, String(args.pluginId));
        },
        disconnectMyIntegration: (ctx, args) => disconnectMyIntegration(ctx, args),
        rotatePluginWebhookKey: async (ctx, args) =>
          viewOf(ctx, (await rotatePluginWebhookKey(host, ctx, args)).plugin_id),
        approvePluginPermissions: async (ctx, args) =>
          viewOf(ctx, (await approvePluginPermissions(host.catalog, ctx, args)).plugin_id),
      }),
    },
  };
}
