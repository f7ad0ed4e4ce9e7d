/**
 * Workspace roles and what each may do (002 §6). The four roles are cumulative: each set below
 * lists only what a role adds to the one before it.
 */
export const ROLES = ['VIEWER', 'CONTRIBUTOR', 'MANAGER', 'WORKSPACE_ADMIN'] as const;
export type Role = (typeof ROLES)[number];

/** Product roles stored on a membership; the admin flag lifts any of them to WORKSPACE_ADMIN. */
export const PRODUCT_ROLES = ['VIEWER', 'CONTRIBUTOR', 'MANAGER'] as const;
export type ProductRole = (typeof PRODUCT_ROLES)[number];

const VIEWER = [
  'projects:read',
  'insights:read',
  'notes:read',
  'tags:read',
  'fields:read',
  'people:read',
  'members:read',
  'profile:read',
  'profile:update',
  'notifications:read',
  'notifications:update',
  'follows:manage',
  'preferences:manage',
  'acl:read',
  'api:projects:read',
] as const;

const CONTRIBUTOR = [
  'projects:create',
  'projects:update',
  'categories:update',
  'exports:create',
  'insights:create',
  'insights:update',
  'notes:create',
  'notes:update',
  'tags:create',
  'tags:update',
  'fields:create',
  'fields:update',
  'people:create',
  'people:update',
  'peopleFields:update',
  'invites:send',
  'acl:write',
  'imports:insightFile',
  'imports:dataFile',
] as const;

const MANAGER = [
  'templates:create',
  'templates:update',
  'projects:delete',
  'categories:manage',
  'exports:manage',
  'tags:manage',
  'fields:manage',
  'people:manage',
  'peopleFields:manage',
  'insights:delete',
  'notes:delete',
  'acl:full',
] as const;

/** Workspace-level permissions, held by workspace admins only. */
const WORKSPACE_ADMIN = [
  'workspace:admin',
  'team:manage',
  'members:manage',
  'domains:manage',
  'aiConfig:manage',
  'userGroups:manage',
  'invites:manage',
  'auditLogs:read',
  'accessRequests:manage',
  'billing:manage',
  'oauthIntegrations:manage',
] as const;

export type Permission =
  | (typeof VIEWER)[number]
  | (typeof CONTRIBUTOR)[number]
  | (typeof MANAGER)[number]
  | (typeof WORKSPACE_ADMIN)[number];

export const ROLE_ADDS: Readonly<Record<Role, readonly Permission[]>> = {
  VIEWER,
  CONTRIBUTOR,
  MANAGER,
  WORKSPACE_ADMIN,
};

export const ALL_PERMISSIONS: readonly Permission[] = ROLES.flatMap((r) => ROLE_ADDS[r]);

/** The full, cumulative permission set of a role. */
export function permissionsOf(role: Role): ReadonlySet<Permission> {
  const upTo = ROLES.slice(0, ROLES.indexOf(role) + 1);
  return new Set(upTo.flatMap((r) => ROLE_ADDS[r]));
}

/** The admin flag overrides; otherwise the stored product role decides (002 §6). */
export function effectiveRole(member: { role: ProductRole; workspaceAdmin: boolean }): Role {
  return member.workspaceAdmin ? 'WORKSPACE_ADMIN' : member.role;
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}
