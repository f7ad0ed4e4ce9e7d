import { defineModule } from '../kernel/module.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { identityModule } from '../identity/module.ts';
import { workspacesModule } from '../workspaces/module.ts';

/** A plugin's web part the app loads with Module Federation (`registerRemotes`/`loadRemote`). */
export interface PluginRemote {
  /** The remote's federation name, unique per app. */
  name: string;
  /** URL of its `mf-manifest.json` or remote entry. */
  entry: string;
  /** The module that default-exports the plugin's web extension, e.g. `./extension`. */
  exposedModule: string;
}

export interface ExtensionsServices {
  /** The web remotes of the plugins enabled for a workspace. */
  pluginRemotes(workspaceId: string): Promise<PluginRemote[]>;
}

export const extensionsTypeDefs = /* GraphQL */ `
  extend type Query {
    "Web parts of the plugins enabled for the current workspace, for the web app to load."
    pluginRemotes: [PluginRemote!]!
  }

  type PluginRemote {
    name: String!
    entry: String!
    exposedModule: String!
  }
`;

/** Plugins are not installable yet, so no workspace has any enabled. */
const noPlugins: ExtensionsServices = { pluginRemotes: async () => [] };

/** The plugin host's web side: the web app asks for these remotes and loads whatever it gets. */
export const extensionsModule = defineModule({
  name: 'extensions',
  dependsOn: [identityModule, workspacesModule],
  services: (): ExtensionsServices => noPlugins,
  graphql: () => ({
    typeDefs: extensionsTypeDefs,
    resolvers: {
      Query: {
        // Only members see a workspace's plugins; anyone else gets none rather than an error.
        pluginRemotes: async (_p: unknown, _a: unknown, rc: RequestContext) => {
          rc.requireViewer();
          if (!rc.workspace || !rc.membership) return [];
          return noPlugins.pluginRemotes(rc.workspace.id);
        },
      },
    },
  }),
});
