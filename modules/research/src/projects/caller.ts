import type { Permission, RequestContext } from '@fieldbook/core';
import type { Caller } from './access.ts';

/** Authorizes the workspace permission and returns who is calling, for the per-project checks. */
export function callerOf(ctx: RequestContext, permission: Permission): Caller {
  const { viewer, workspace, membership } = ctx.authorize(permission);
  return { userId: viewer.userId, workspaceId: workspace.id, membership };
}

/** Managers and workspace admins: the roles that may delete, empty the trash and edit locked items. */
export const isManager = (caller: Caller): boolean =>
  caller.membership.effectiveRole === 'MANAGER' || caller.membership.effectiveRole === 'WORKSPACE_ADMIN';
