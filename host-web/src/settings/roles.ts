import type { Membership, ProductRole, Role } from '../api/operations.ts';

export const ROLE_ORDER: readonly Role[] = ['VIEWER', 'CONTRIBUTOR', 'MANAGER', 'WORKSPACE_ADMIN'];

const LABELS: Record<Role, string> = {
  VIEWER: 'Viewer',
  CONTRIBUTOR: 'Contributor',
  MANAGER: 'Manager',
  WORKSPACE_ADMIN: 'Workspace admin',
};

export const roleLabel = (role: Role): string => LABELS[role];

export const ROLE_HINTS: Record<Role, string> = {
  VIEWER: 'Reads projects, insights, notes and tags.',
  CONTRIBUTOR: 'Also creates and edits research, and invites people.',
  MANAGER: 'Also manages templates, tags, fields and deletes content.',
  WORKSPACE_ADMIN: 'Full administration: members, security, billing, audit log.',
};

/** A role choice in the UI: a product role, plus the admin flag for WORKSPACE_ADMIN. */
export interface RoleChoice {
  value: Role;
  role: ProductRole;
  workspaceAdmin: boolean;
}

export function roleChoice(value: Role, keepProductRole: ProductRole = 'MANAGER'): RoleChoice {
  return value === 'WORKSPACE_ADMIN'
    ? { value, role: keepProductRole, workspaceAdmin: true }
    : { value, role: value, workspaceAdmin: false };
}

/**
 * Roles someone may invite with (002 §6): contributors and managers invite with their own role or
 * a lower one; admins (invites manage) with any role, admin included.
 */
export function invitableRoles(membership: Pick<Membership, 'effectiveRole' | 'permissions'>): Role[] {
  if (membership.permissions.includes('invites:manage')) return [...ROLE_ORDER];
  if (!membership.permissions.includes('invites:send')) return [];
  const rank = ROLE_ORDER.indexOf(membership.effectiveRole);
  return ROLE_ORDER.filter((r, i) => r !== 'WORKSPACE_ADMIN' && i <= rank);
}
