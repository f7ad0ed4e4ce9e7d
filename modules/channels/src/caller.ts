import type { Membership, Permission, RequestContext } from '@fieldbook/core';

/** Who calls, after the workspace permission was checked. */
export interface Caller {
  userId: string;
  workspaceId: string;
  membership: Membership;
}

/**
 * What each channel operation needs (002 §6). Channels hold research data like projects: every
 * member reads them, contributors create them and import data files into them ("data file
 * import"), managers and admins delete and restore them.
 */
export const CHANNEL_PERMISSIONS = {
  read: 'projects:read',
  create: 'projects:create',
  update: 'projects:update',
  import: 'imports:dataFile',
  delete: 'projects:delete',
} as const satisfies Record<string, Permission>;

export function callerOf(ctx: RequestContext, permission: Permission): Caller {
  const { viewer, workspace, membership } = ctx.authorize(permission);
  return { userId: viewer.userId, workspaceId: workspace.id, membership };
}
