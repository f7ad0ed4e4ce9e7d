/** Permission levels on an object, weakest first (000 §6). */
export const PERMISSION_LEVELS = ['none', 'read', 'write', 'full'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** none 0, read 1, write 2, full 3. */
export const LEVEL_RANK: Readonly<Record<PermissionLevel, number>> = { none: 0, read: 1, write: 2, full: 3 };

export const levelRank = (level: PermissionLevel): number => LEVEL_RANK[level];

export const isPermissionLevel = (value: unknown): value is PermissionLevel =>
  typeof value === 'string' && (PERMISSION_LEVELS as readonly string[]).includes(value);

/** True when `level` grants at least `required`. */
export const atLeast = (level: PermissionLevel, required: PermissionLevel): boolean =>
  LEVEL_RANK[level] >= LEVEL_RANK[required];

/** The highest of the levels; none for an empty list (nothing granted). */
export function maxLevel(levels: Iterable<PermissionLevel | null | undefined>): PermissionLevel {
  let best: PermissionLevel = 'none';
  for (const l of levels) if (l && LEVEL_RANK[l] > LEVEL_RANK[best]) best = l;
  return best;
}

/** The lowest of the levels; none for an empty list, since an empty list grants nothing. */
export function minLevel(levels: Iterable<PermissionLevel | null | undefined>): PermissionLevel {
  let lowest: PermissionLevel | null = null;
  for (const l of levels) {
    const level = l ?? 'none';
    if (lowest === null || LEVEL_RANK[level] < LEVEL_RANK[lowest]) lowest = level;
  }
  return lowest ?? 'none';
}
