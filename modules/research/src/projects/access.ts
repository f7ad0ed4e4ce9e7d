import type { Knex } from 'knex';
import {
  accessRoleForLevel,
  atLeast,
  effectivePermission,
  levelAllowedFor,
  maxLevel,
  notFound,
  forbidden,
  permissionMapSchema,
  type AccessRole,
  type Membership,
  type PermissionLevel,
  type PermissionMap,
} from '@fieldbook/core';

/**
 * Per-project access: the one rule every project, note, insight and highlight resolver goes by.
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
 *
 * Below read a project does not exist for the person: every call answers NOT_FOUND. Editing
 * needs write; changing the map needs full (the creator of a project is granted full on it).
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

export interface ProjectRow {
  id: string;
  workspace_id: string;
  category_id: string | null;
  title: string;
  status: string;
  color: string | null;
  icon: string | null;
  readme: unknown;
  enabled_sections: string[] | null;
  rank: number;
  permissions: unknown;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface Caller {
  userId: string;
  workspaceId: string;
  membership: Membership;
}

/**
 * The project if the caller may use it at `needed`: NOT_FOUND when it is in another workspace, in
 * the trash, or unreadable for them; FORBIDDEN when they may read but not do more.
 */
export async function projectFor(trx: Knex.Transaction, caller: Caller, projectId: string, needed: PermissionLevel, opts: { includeDeleted?: boolean } = {}): Promise<ProjectRow> {
  const q = trx('projects').where({ id: projectId, workspace_id: caller.workspaceId });
  if (!opts.includeDeleted) q.whereNull('deleted_at');
  const project = (await q.first()) as ProjectRow | undefined;
  if (!project) throw notFound('That project');
  const { level } = projectAccess(caller.membership, caller.userId, project.permissions);
  if (!atLeast(level, 'read')) throw notFound('That project');
  if (!atLeast(level, needed)) {
    throw forbidden(needed === 'full' ? 'You need full access to this project to do that.' : 'You don’t have edit permissions in this project');
  }
  return project;
}

/** The ids of the projects the caller can read, in the workspace, out of the trash. */
export async function readableProjectIds(trx: Knex.Transaction, caller: Caller): Promise<string[]> {
  const rows = (await trx('projects').where({ workspace_id: caller.workspaceId }).whereNull('deleted_at').select('id', 'permissions')) as Array<{ id: string; permissions: unknown }>;
  return rows.filter((r) => atLeast(projectAccess(caller.membership, caller.userId, r.permissions).level, 'read')).map((r) => r.id);
}
