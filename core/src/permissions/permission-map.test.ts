import { describe, expect, it } from 'vitest';
import { accessList, accessRoleForLevel, accessRoleOf, levelAllowedFor } from './access-roles.ts';
import { effectivePermission, permissionMapSchema, type PermissionMap } from './permission-map.ts';

const ME = '11111111-1111-4111-8111-111111111111';
const YOU = '22222222-2222-4222-8222-222222222222';
const GROUP_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const GROUP_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const map = (groups: Record<string, string>, users: Record<string, string> = {}): PermissionMap =>
  permissionMapSchema.parse({ groups, users });

describe('permission map (000 §6)', () => {
  it('keys groups by public, markup, playback or a group id, and users by id', () => {
    const parsed = map({ public: 'read', markup: 'write', playback: 'none', [GROUP_A]: 'full' }, { [ME]: 'read' });
    expect(parsed).toEqual({
      groups: { public: 'read', markup: 'write', playback: 'none', [GROUP_A]: 'full' },
      users: { [ME]: 'read' },
    });
    expect(permissionMapSchema.parse({})).toEqual({ groups: {}, users: {} });
    expect(permissionMapSchema.safeParse({ groups: { everyone: 'read' } }).success).toBe(false);
    expect(permissionMapSchema.safeParse({ users: { 'not-a-uuid': 'read' } }).success).toBe(false);
    expect(permissionMapSchema.safeParse({ users: { [ME]: 'owner' } }).success).toBe(false);
  });

  it.each([
    ['only the own grant', map({}, { [ME]: 'write' }), [], 'write'],
    ['the markup group above the own grant', map({ markup: 'full' }, { [ME]: 'read' }), [], 'full'],
    ['the own grant above the markup group', map({ markup: 'read' }, { [ME]: 'write' }), [], 'write'],
    ["the best of the person's groups", map({ [GROUP_A]: 'read', [GROUP_B]: 'full' }), [GROUP_A, GROUP_B], 'full'],
    ['a group the person is not in does not count', map({ [GROUP_B]: 'full' }), [GROUP_A], 'none'],
    ["another user's grant does not count", map({}, { [YOU]: 'full' }), [], 'none'],
    ['the public group does not count for members', map({ public: 'full' }), [], 'none'],
    ['the playback group does not count for members', map({ playback: 'write' }), [], 'none'],
    ['nothing granted', map({}), [GROUP_A], 'none'],
  ])('effective permission with %s', (_why, m, groupIds, expected) => {
    expect(effectivePermission(m, { userId: ME, groupIds })).toBe(expected);
  });
});

describe('access roles (000 §6)', () => {
  it('maps write and full to CONTRIBUTOR, read to VIEWER, none to nothing', () => {
    expect(accessRoleForLevel('full')).toBe('CONTRIBUTOR');
    expect(accessRoleForLevel('write')).toBe('CONTRIBUTOR');
    expect(accessRoleForLevel('read')).toBe('VIEWER');
    expect(accessRoleForLevel('none')).toBeNull();
  });

  it('never lets a workspace VIEWER qualify above read', () => {
    expect(levelAllowedFor('VIEWER', 'full')).toBe('read');
    expect(levelAllowedFor('VIEWER', 'none')).toBe('none');
    expect(levelAllowedFor('CONTRIBUTOR', 'full')).toBe('full');
    expect(accessRoleOf(map({}, { [ME]: 'full' }), { userId: ME, groupIds: [], role: 'VIEWER' })).toBe('VIEWER');
    expect(accessRoleOf(map({}, { [ME]: 'full' }), { userId: ME, groupIds: [], role: 'MANAGER' })).toBe('CONTRIBUTOR');
  });

  it('leaves out people without a role and people granted nothing', () => {
    const m = map({ [GROUP_A]: 'write' }, { [ME]: 'read', [YOU]: 'full' });
    const list = accessList(m, [
      { userId: ME, groupIds: [GROUP_A], role: 'VIEWER' },
      { userId: YOU, groupIds: [], role: null },
      { userId: '33333333-3333-4333-8333-333333333333', groupIds: [GROUP_A], role: 'CONTRIBUTOR' },
      { userId: '44444444-4444-4444-8444-444444444444', groupIds: [], role: 'MANAGER' },
    ]);
    expect(list).toEqual([
      { userId: ME, accessRole: 'VIEWER' },
      { userId: '33333333-3333-4333-8333-333333333333', accessRole: 'CONTRIBUTOR' },
    ]);
  });
});
