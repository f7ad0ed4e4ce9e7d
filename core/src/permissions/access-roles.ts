import { atLeast, minLevel, type PermissionLevel } from './levels.ts';
import { effectivePermission, type Grantee, type PermissionMap } from './permission-map.ts';
import type { ProductRole, Role } from './roles.ts';

/** Roles shown on an object's access list (000 §6). */
export const ACCESS_ROLES = ['MANAGER', 'CONTRIBUTOR', 'VIEWER'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

/** Write or full maps to CONTRIBUTOR, read to VIEWER, none to no access role. */
export function accessRoleForLevel(level: PermissionLevel): AccessRole | null {
  if (atLeast(level, 'write')) return 'CONTRIBUTOR';
  if (atLeast(level, 'read')) return 'VIEWER';
  return null;
}

/** A workspace VIEWER never qualifies above read, whatever the object grants them. */
export function levelAllowedFor(role: ProductRole | Role, level: PermissionLevel): PermissionLevel {
  return role === 'VIEWER' ? minLevel([level, 'read']) : level;
}

export interface AccessCandidate extends Grantee {
  /** The person's workspace role; people without one are left out. */
  role: ProductRole | Role | null;
}

/** The access role of one person on an object, or null when they get none. */
export function accessRoleOf(map: PermissionMap, who: AccessCandidate): AccessRole | null {
  if (!who.role) return null;
  return accessRoleForLevel(levelAllowedFor(who.role, effectivePermission(map, who)));
}

/** The access list of an object: each person with a role who gets some access, with that access. */
export function accessList(
  map: PermissionMap,
  people: readonly AccessCandidate[],
): Array<{ userId: string; accessRole: AccessRole }> {
  const list: Array<{ userId: string; accessRole: AccessRole }> = [];
  for (const person of people) {
    const accessRole = accessRoleOf(map, person);
    if (accessRole) list.push({ userId: person.userId, accessRole });
  }
  return list;
}
