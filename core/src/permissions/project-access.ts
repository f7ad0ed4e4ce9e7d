import type { Membership } from '../kernel/request-context.ts';
import { accessRoleForLevel, levelAllowedFor, type AccessRole } from './access-roles.ts';
import { maxLevel, type PermissionLevel } from './levels.ts';
import { effectivePermission, permissionMapSchema, type PermissionMap } from './permission-map.ts';

/**
 * Per-project access: the one rule every project, note, insight and highlight read goes by, and
 * what search filters its results with.
 *
 * - Workspace admins and managers have full access to every project (they manage the workspace
 *   and its trash, so nothing may be hidden from them).
 * - For contributors and viewers the project's permission map (000 §6) decides. Its `markup`
 *   group is the grant to everyone in the workspace. While the map has no `markup` key the
 *   project is open: everyone gets their role's baseline (contributor write, viewer read). Once
 *   `markup` is set the project is restricted: the workspace-wide level is that value (often
 *   `none`) and only the person's own grant and their user groups' grants can raise it.
 *   The effective level is the highest of those (000 §6).
 * - A workspace VIEWER never goes above read, whatever the map grants (000 §6), and a level is
 *   only as useful as the role's permissions (002 §6): a viewer granted write still cannot edit.
 * - `public` and `playback` serve people opening share links and never count for members.
 */
export interface ProjectAccess {
  level: PermissionLevel;
  accessRole: AccessRole | 'MANAGER' | null;
}

const ROLE_BASELINE = { VIEWER: 'read', CONTRIBUTOR: 'write' } as const satisfies Record<string, PermissionLevel>;

export function parsePermissionMap(stored: unknown): PermissionMap {
  const parsed = permissionMapSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : { groups: {}, users: {} };
}

export function isRestricted(map: PermissionMap): boolean {
  return map.groups.markup !== undefined;
}

export function projectAccess(membership: Membership, userId: string, storedMap: unknown): ProjectAccess {
  const role = membership.effectiveRole;
  if (role === 'WORKSPACE_ADMIN' || role === 'MANAGER') return { level: 'full', accessRole: 'MANAGER' };
  const map = parsePermissionMap(storedMap);
  const granted = effectivePermission(map, { userId, groupIds: membership.groupIds });
  const level = levelAllowedFor(role, maxLevel([granted, isRestricted(map) ? 'none' : ROLE_BASELINE[role]]));
  return { level, accessRole: accessRoleForLevel(level) };
}
