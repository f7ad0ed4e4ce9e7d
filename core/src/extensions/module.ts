import { normalize } from 'node:path';
import type Router from '@koa/router';
import { defineModule, type FieldbookModule } from '../kernel/module.ts';
import { deriveKey } from '../config.ts';
import { sendStaticFile } from '../http/static.ts';
import { identityModule } from '../identity/module.ts';
import { workspacesModule } from '../workspaces/module.ts';
import { extensionsGraphql } from './api/resolvers.ts';
import { pluginGraphql } from './api/plugin-graphql.ts';
import { catalogOf, type PluginCatalog } from './catalog/catalog.ts';
import { oauthRoutes } from './oauth/flow.ts';
import type { PluginDataPort } from './runtime/data-port.ts';
import type { PluginRequestHook } from './runtime/egress.ts';
import { PluginHost } from './runtime/host.ts';
import { pluginJobs } from './runtime/plugin-jobs.ts';
import { SecretBox } from './runtime/secret-box.ts';
import { installationWebhookRoutes } from './webhooks/installation-intake.ts';
import { webhookJobs, webhookRoutes } from './webhooks/intake.ts';
import { createDeliveryStore } from './webhooks/store.ts';

export interface ExtensionsServices {
  host: PluginHost;
  /**
   * The extension point the research module fills: what plugins' note and project capabilities
   * are made of. Called once at start.
   */
  provideData(port: PluginDataPort): void;
}

type ExtensionsModule = FieldbookModule<
  'extensions',
  readonly [typeof identityModule, typeof workspacesModule],
  ExtensionsServices
>;

/**
 * The plugin host: the catalog of loaded plugins, installations per workspace and enablement per
 * project, webhook intake, OAuth connections, plugin jobs and GraphQL, and the web remotes.
 */
export function createExtensionsModule(
  catalog: PluginCatalog,
  opts: { onPluginRequest?: PluginRequestHook } = {},
): ExtensionsModule {
  let host: PluginHost | null = null;
  const hostOf = (): PluginHost => {
    if (!host) throw new Error('The plugin host is used before it started.');
    return host;
  };
  return defineModule({
    name: 'extensions',
    dependsOn: [identityModule, workspacesModule],
    services: (ctx): ExtensionsServices => {
      let data: PluginDataPort | null = null;
      host = new PluginHost({
        catalog,
        app: ctx.db.app,
        owner: ctx.db.owner,
        jobs: ctx.jobs,
        logger: ctx.logger,
        box: new SecretBox(deriveKey(ctx.config, 'plugin-secrets')),
        publicUrl: ctx.config.publicUrl.origin,
        memberContext: async (workspaceId, userId) => {
          const member = await ctx.memberContext(workspaceId, userId);
          if (!member) throw new Error('The person who installed this plugin is no longer a member of the workspace.');
          return member;
        },
        data: () => data,
        onPluginRequest: opts.onPluginRequest,
      });
      return {
        host,
        provideData(port) {
          data = port;
        },
      };
    },
    graphql: (ctx) => [extensionsGraphql(hostOf(), ctx.config.plugins.maximumExtensions), ...pluginGraphql(hostOf())],
    jobs: () => [...webhookJobs(hostOf()), ...pluginJobs(hostOf())],
    routes: (router: Router) => {
      const h = hostOf();
      // One store for both kinds of webhook URL, so their deliveries share commits under load.
      const deliveries = createDeliveryStore(h.deps.app, h.deps.jobs);
      webhookRoutes(router, h, deliveries);
      installationWebhookRoutes(router, h, deliveries);
      oauthRoutes(router, h);
      // Built plugin web parts (Module Federation remotes), for the app to load at run time.
      router.get('/plugins/:pluginId/web/*file', async (ctx) => {
        const plugin = h.catalog.ready(ctx.params.pluginId!);
        const file = normalize(decodeURIComponent(ctx.path.slice(`/plugins/${ctx.params.pluginId}/web/`.length)));
        if (!plugin?.webDir || !(await sendStaticFile(ctx, plugin.webDir, file))) ctx.status = 404;
        else ctx.set('access-control-allow-origin', '*');
      });
    },
  });
}

/** The module as other modules refer to it (its name and services); the server builds the real one. */
export const extensionsModule = createExtensionsModule(catalogOf([]));
