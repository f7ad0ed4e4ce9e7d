import { z } from 'zod';
import { maxLevel, PERMISSION_LEVELS, type PermissionLevel } from './levels.ts';

/** Group keys with a meaning of their own; any other group key is a user group's UUID (000 §6). */
export const SPECIAL_GROUPS = ['public', 'markup', 'playback'] as const;
export type SpecialGroup = (typeof SPECIAL_GROUPS)[number];

/** Who may do what with one object: levels by group key and by user id. */
export interface PermissionMap {
  groups: Readonly<Record<string, PermissionLevel>>;
  users: Readonly<Record<string, PermissionLevel>>;
}

export const EMPTY_PERMISSION_MAP: PermissionMap = { groups: {}, users: {} };

const levelSchema = z.enum(PERMISSION_LEVELS, {
  error: `A permission level is one of ${PERMISSION_LEVELS.join(', ')}.`,
});
const groupKeySchema = z.union([z.enum(SPECIAL_GROUPS), z.uuid()], {
  error: `A group key is ${SPECIAL_GROUPS.join(', ')} or a group id.`,
});

/** The one shape a stored or submitted permission map must have. */
export const permissionMapSchema = z.object({
  groups: z.record(groupKeySchema, levelSchema).default({}),
  users: z.record(z.uuid({ error: 'A user key is a user id.' }), levelSchema).default({}),
});

/** Who is asking: a user and the user groups they belong to. */
export interface Grantee {
  userId: string;
  groupIds: readonly string[];
}

/**
 * The effective permission: the highest of the user's own grant, the markup group and the user's
 * groups (000 §6). The public and playback groups serve link viewers, not members, so they do
 * not count here.
 */
export function effectivePermission(map: PermissionMap, who: Grantee): PermissionLevel {
  return maxLevel([map.users[who.userId], map.groups.markup, ...who.groupIds.map((g) => map.groups[g])]);
}
