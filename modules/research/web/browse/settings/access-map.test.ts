import { describe, expect, it } from 'vitest';
import { sameMap, withGrant } from './access-map.ts';

describe('permission map edits', () => {
  const map = { groups: { public: 'read' as const, markup: 'none' as const }, users: { u1: 'write' as const } };

  it('sets a grant and keeps the other keys', () => {
    const next = withGrant(map, 'groups', 'g1', 'full');
    expect(next).toEqual({ groups: { public: 'read', markup: 'none', g1: 'full' }, users: { u1: 'write' } });
    expect(map.groups).not.toHaveProperty('g1');
  });

  it('takes a grant out when no level is chosen', () => {
    expect(withGrant(map, 'users', 'u1', '').users).toEqual({});
    expect(withGrant(map, 'groups', 'markup', '').groups).toEqual({ public: 'read' });
  });

  it('compares maps whatever the key order', () => {
    expect(
      sameMap({ groups: { a: 'read', b: 'none' }, users: {} }, { groups: { b: 'none', a: 'read' }, users: {} }),
    ).toBe(true);
    expect(sameMap(map, withGrant(map, 'users', 'u1', 'read'))).toBe(false);
  });
});
