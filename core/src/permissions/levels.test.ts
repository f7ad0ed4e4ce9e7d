import { describe, expect, it } from 'vitest';
import { atLeast, isPermissionLevel, LEVEL_RANK, levelRank, maxLevel, minLevel, PERMISSION_LEVELS } from './levels.ts';

describe('permission levels (000 §6)', () => {
  it('ranks none 0, read 1, write 2, full 3', () => {
    expect(PERMISSION_LEVELS.map((l) => [l, levelRank(l)])).toEqual([
      ['none', 0],
      ['read', 1],
      ['write', 2],
      ['full', 3],
    ]);
    expect(LEVEL_RANK).toEqual({ none: 0, read: 1, write: 2, full: 3 });
  });

  it.each([
    ['none', 'none', true],
    ['read', 'none', true],
    ['read', 'write', false],
    ['write', 'read', true],
    ['full', 'write', true],
    ['write', 'full', false],
  ] as const)('%s is at least %s: %s', (level, required, expected) => {
    expect(atLeast(level, required)).toBe(expected);
  });

  it('takes the highest of a list, none when empty or only missing', () => {
    expect(maxLevel(['read', 'full', 'write'])).toBe('full');
    expect(maxLevel(['none', 'read'])).toBe('read');
    expect(maxLevel([undefined, null, 'write'])).toBe('write');
    expect(maxLevel([])).toBe('none');
  });

  it('takes the lowest of a list; a missing grant counts as none; an empty list grants none', () => {
    expect(minLevel(['full', 'read', 'write'])).toBe('read');
    expect(minLevel(['full', 'write'])).toBe('write');
    expect(minLevel(['full', undefined])).toBe('none');
    expect(minLevel(['full'])).toBe('full');
    expect(minLevel([])).toBe('none');
  });

  it('recognises exactly the four level names', () => {
    expect(PERMISSION_LEVELS.every(isPermissionLevel)).toBe(true);
    expect(['admin', 'READ', '', 3, null].some(isPermissionLevel)).toBe(false);
  });
});
