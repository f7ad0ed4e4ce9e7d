import type { PermissionLevel, PermissionMap } from '../api.ts';

/** How levels (000 §6) are named on screen. */
export const LEVEL_LABEL: Record<PermissionLevel, string> = {
  none: 'No access',
  read: 'Can view',
  write: 'Can edit',
  full: 'Full access',
};

/** `''` stands for "no grant here" in the pickers: the key is left out of the map. */
export type Choice = PermissionLevel | '';

/** A copy of the map with one grant set or taken out; other keys (public, playback) are kept. */
export function withGrant(map: PermissionMap, kind: 'groups' | 'users', key: string, choice: Choice): PermissionMap {
  const next: PermissionMap = { groups: { ...map.groups }, users: { ...map.users } };
  if (choice === '') delete next[kind][key];
  else next[kind][key] = choice;
  return next;
}

export function sameMap(a: PermissionMap, b: PermissionMap): boolean {
  const norm = (m: PermissionMap) =>
    JSON.stringify([Object.entries(m.groups ?? {}).sort(), Object.entries(m.users ?? {}).sort()]);
  return norm(a) === norm(b);
}
