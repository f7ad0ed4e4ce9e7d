import { describe, expect, it } from 'vitest';
import { invitableRoles, roleChoice } from './roles.ts';

const admin = ['invites:send', 'invites:manage', 'members:manage'];

describe('roles offered when inviting (002 §6)', () => {
  it('offers contributors their own role or lower', () => {
    expect(invitableRoles({ effectiveRole: 'CONTRIBUTOR', permissions: ['invites:send'] })).toEqual([
      'VIEWER',
      'CONTRIBUTOR',
    ]);
  });
  it('offers managers up to manager', () => {
    expect(invitableRoles({ effectiveRole: 'MANAGER', permissions: ['invites:send'] })).toEqual([
      'VIEWER',
      'CONTRIBUTOR',
      'MANAGER',
    ]);
  });
  it('offers admins every role, admin included', () => {
    expect(invitableRoles({ effectiveRole: 'WORKSPACE_ADMIN', permissions: admin })).toEqual([
      'VIEWER',
      'CONTRIBUTOR',
      'MANAGER',
      'WORKSPACE_ADMIN',
    ]);
  });
  it('offers viewers nothing', () => {
    expect(invitableRoles({ effectiveRole: 'VIEWER', permissions: ['members:read'] })).toEqual([]);
  });
  it('turns the admin choice into the admin flag over a product role', () => {
    expect(roleChoice('WORKSPACE_ADMIN', 'CONTRIBUTOR')).toEqual({
      value: 'WORKSPACE_ADMIN',
      role: 'CONTRIBUTOR',
      workspaceAdmin: true,
    });
    expect(roleChoice('VIEWER')).toEqual({ value: 'VIEWER', role: 'VIEWER', workspaceAdmin: false });
  });
});
