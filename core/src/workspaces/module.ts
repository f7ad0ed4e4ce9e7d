import { defineModule, type ModuleContext } from '../kernel/module.ts';
import type { WorkspaceDirectory } from '../kernel/ports.ts';
import { identityModule } from '../identity/module.ts';
import type { WorkspacesDeps } from './deps.ts';
import { createWorkspaceDirectory } from './directory.ts';
import { workspacesResolvers } from './resolvers.ts';
import { workspacesTypeDefs } from './schema.ts';
import { mountTeamRedirect } from './team-redirect.ts';

export interface WorkspacesServices {
  directory: WorkspaceDirectory;
}

const depsOf = (ctx: ModuleContext<readonly [typeof identityModule]>): WorkspacesDeps => ({
  config: ctx.config,
  app: ctx.db.app,
  mailer: ctx.mailer,
  logger: ctx.logger,
  identity: ctx.deps.identity,
  invalidations: ctx.invalidations,
});

/** Workspaces, members, groups, invites, domains, roles and the audit log. */
export const workspacesModule = defineModule({
  name: 'workspaces',
  dependsOn: [identityModule],
  services: (ctx): WorkspacesServices => ({ directory: createWorkspaceDirectory(ctx.db.app, ctx.invalidations) }),
  graphql: (ctx) => ({ typeDefs: workspacesTypeDefs, resolvers: workspacesResolvers(depsOf(ctx)) }),
  routes: (router, ctx) => mountTeamRedirect(router, depsOf(ctx)),
});
