import { PluginInputError } from '@fieldbook/extensions-sdk/server';
import { AppError } from '../../errors/app-error.ts';
import type { ModuleGraphql } from '../../kernel/module.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { markFailed, type LoadedPlugin } from '../catalog/catalog.ts';
import { findInstallation } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';
import { checkPluginTypeDefs } from './plugin-schema.ts';

type Resolver = (parent: unknown, args: Record<string, unknown>, ctx: RequestContext) => Promise<unknown>;

/**
 * Checks every plugin's GraphQL (plugin-schema.ts) and the names it takes against the other
 * plugins': one that breaks a rule is marked failed with the reason and adds nothing, so the schema
 * always builds. Returns the ready plugins whose GraphQL joins it.
 */
function checkedPlugins(host: PluginHost): LoadedPlugin[] {
  const owners = new Map<string, string>();
  const joining: LoadedPlugin[] = [];
  for (const plugin of host.catalog.plugins) {
    const graphql = plugin.definition.server.graphql;
    if (!graphql || plugin.state === 'failed') continue;
    try {
      const names = checkPluginTypeDefs(plugin.id, graphql.typeDefs, {
        query: Object.keys(graphql.query ?? {}),
        mutation: Object.keys(graphql.mutation ?? {}),
      });
      if (plugin.state !== 'ready') continue;
      // Ids are unique, yet one id's prefix may start another's (`slack`, `slack-x`): names must be too.
      const taken = [
        ...names.types,
        ...names.query.map((f) => `Query.${f}`),
        ...names.mutation.map((f) => `Mutation.${f}`),
      ];
      const clash = taken.find((name) => owners.has(name));
      if (clash) throw new Error(`The GraphQL ${clash} of ${plugin.id} is already declared by ${owners.get(clash)}.`);
      for (const name of taken) owners.set(name, plugin.id);
      joining.push(plugin);
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      host.deps.logger.error({ plugin: plugin.id, err: problem }, 'a plugin declares invalid GraphQL and is disabled');
      markFailed(plugin, problem);
    }
  }
  return joining;
}

/**
 * The GraphQL plugins add: fields on Query and Mutation, and the plugin's own types, which resolve
 * from the JSON its resolvers return. Each field runs for the current workspace's installation,
 * for a signed-in member; a workspace without the plugin installed gets a clear error.
 */
export function pluginGraphql(host: PluginHost): ModuleGraphql[] {
  return checkedPlugins(host).map((plugin) => {
    const graphql = plugin.definition.server.graphql!;
    const wrap =
      (resolve: (args: Record<string, unknown>, ctx: never) => unknown): Resolver =>
      async (_parent, args, rc) => {
        const { viewer } = rc.authorize('members:read');
        if (!host.catalog.ready(plugin.id))
          throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} is not available right now.`);
        const row = await rc.tx((trx) => findInstallation(trx, plugin.id));
        if (!row) throw notInstalled(plugin);
        const ctx = Object.assign(host.installationContext(plugin, row, viewer.userId), {
          viewer: { userId: viewer.userId },
        });
        try {
          return await resolve(args, ctx as never);
        } catch (err) {
          if (err instanceof PluginInputError)
            throw new AppError(err.options.code ?? 'BAD_USER_INPUT', err.message, { field: err.options.field });
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
