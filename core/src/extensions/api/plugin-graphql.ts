import { PluginInputError } from '@fieldbook/extensions-sdk/server';
import { AppError } from '../../errors/app-error.ts';
import type { ModuleGraphql } from '../../kernel/module.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { findInstallation } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';

type Resolver = (parent: unknown, args: Record<string, unknown>, ctx: RequestContext) => Promise<unknown>;

/**
 * The GraphQL fields plugins add. Each runs for the current workspace's installation, for a
 * signed-in member; a workspace without the plugin installed gets a clear error.
 */
export function pluginGraphql(host: PluginHost): ModuleGraphql[] {
  return host.catalog.plugins
    .filter((p) => p.state === 'ready' && p.definition.server.graphql)
    .map((plugin) => {
      const graphql = plugin.definition.server.graphql!;
      const wrap = (resolve: (args: Record<string, unknown>, ctx: never) => unknown): Resolver => async (_parent, args, rc) => {
        const { viewer } = rc.authorize('members:read');
        if (!host.catalog.ready(plugin.id)) throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} is not available right now.`);
        const row = await rc.tx((trx) => findInstallation(trx, plugin.id));
        if (!row) throw notInstalled(plugin);
        const ctx = Object.assign(host.installationContext(plugin, row, viewer.userId), { viewer: { userId: viewer.userId } });
        try {
          return await resolve(args, ctx as never);
        } catch (err) {
          if (err instanceof PluginInputError) throw new AppError(err.options.code ?? 'BAD_USER_INPUT', err.message, { field: err.options.field });
          throw err;
        }
      };
      const map = (fields: Record<string, (args: Record<string, unknown>, ctx: never) => unknown> | undefined) =>
        Object.fromEntries(Object.entries(fields ?? {}).map(([name, fn]) => [name, wrap(fn)]));
      const resolvers: ModuleGraphql['resolvers'] = {};
      if (graphql.query) resolvers.Query = map(graphql.query);
      if (graphql.mutation) resolvers.Mutation = map(graphql.mutation);
      return { typeDefs: graphql.typeDefs, resolvers };
    });
}

function notInstalled(plugin: LoadedPlugin): AppError {
  return new AppError('INVALID_OPERATION', `${plugin.manifest.name} is not installed in this workspace.`);
}
