import { defineModule } from '../kernel/module.ts';
import type { WorkspaceDirectory } from '../kernel/ports.ts';
import { identityModule } from '../identity/module.ts';
import { workspacesTypeDefs } from './schema.ts';

export interface WorkspacesServices {
  directory: WorkspaceDirectory;
}

/** Workspaces, members, groups, invites, domains, roles and the audit log. */
export const workspacesModule = defineModule({
  name: 'workspaces',
  dependsOn: [identityModule],
  services: (): WorkspacesServices => ({
    directory: {
      async find() {
        return null;
      },
      async membership() {
        return null;
      },
    },
  }),
  graphql: () => ({ typeDefs: workspacesTypeDefs, resolvers: {} }),
});
