import { forbidden } from '../errors/app-error.ts';
import { effectiveRole, permissionsOf, roleRank, type Permission, type ProductRole, type Role } from './roles.ts';

/** What authorization needs to know of a membership. */
export interface RoleHolder {
  effectiveRole: Role;
}

/** The one rule: a member may do what their effective role's cumulative set lists. */
export function can(member: RoleHolder | null | undefined, permission: Permission): boolean {
  return Boolean(member && permissionsOf(member.effectiveRole).has(permission));
}

/** Throws FORBIDDEN unless `can`. */
export function assertCan(member: RoleHolder | null | undefined, permission: Permission, message?: string): void {
  if (!can(member, permission)) throw forbidden(message);
}

/**
 * Whether a member may invite someone as `invitee`: those who send invites may offer the same or
 * a lower role; "invites manage (any role)" lifts that (002 §6).
 */
export function canInviteAs(inviter: RoleHolder, invitee: { role: ProductRole; workspaceAdmin: boolean }): boolean {
  if (can(inviter, 'invites:manage')) return true;
  if (!can(inviter, 'invites:send')) return false;
  return roleRank(effectiveRole(invitee)) <= roleRank(inviter.effectiveRole);
}
