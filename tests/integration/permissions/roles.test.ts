import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, canInviteAs } from '../../../core/src/permissions/authorize.ts';
import {
  ALL_PERMISSIONS,
  effectiveRole,
  permissionsOf,
  ROLES,
  type Permission,
  type Role,
} from '../../../core/src/permissions/roles.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  addMember,
  createWorkspaceWithAdmin,
  INVITE_MEMBERS,
  type MemberFixture,
  type WorkspaceFixture,
} from '../../support/factories.ts';
import {
  errorOf,
  signUpConfirmed,
  uniqueEmail,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from '../identity/support.ts';

/** What each role adds, read off 002 §6 line by line. */
const SPEC: Record<Role, Permission[]> = {
  VIEWER: [
    // Read projects, insights, notes, tags, fields, people and team members.
    'projects:read',
    'insights:read',
    'notes:read',
    'tags:read',
    'fields:read',
    'people:read',
    'members:read',
    // Read and update own profile and own notifications.
    'profile:read',
    'profile:update',
    'notifications:read',
    'notifications:update',
    // Own follows and preferences.
    'follows:manage',
    'preferences:manage',
    // Read the access control list; project read through the API.
    'acl:read',
    'api:projects:read',
  ],
  CONTRIBUTOR: [
    'projects:create',
    'projects:update',
    'categories:update',
    'exports:create',
    'insights:create',
    'insights:update',
    'notes:create',
    'notes:update',
    'tags:create',
    'tags:update',
    'fields:create',
    'fields:update',
    'people:create',
    'people:update',
    'peopleFields:update',
    'invites:send',
    'acl:write',
    'imports:insightFile',
    'imports:dataFile',
  ],
  MANAGER: [
    'templates:create',
    'templates:update',
    'projects:delete',
    'categories:manage',
    'exports:manage',
    'tags:manage',
    'fields:manage',
    'people:manage',
    'peopleFields:manage',
    'insights:delete',
    'notes:delete',
    'acl:full',
  ],
  WORKSPACE_ADMIN: [
    'workspace:admin',
    'team:manage',
    'members:manage',
    'domains:manage',
    'aiConfig:manage',
    'userGroups:manage',
    'invites:manage',
    'auditLogs:read',
    'accessRequests:manage',
    'billing:manage',
    'oauthIntegrations:manage',
  ],
};

const cumulative = (role: Role): Set<Permission> =>
  new Set(ROLES.slice(0, ROLES.indexOf(role) + 1).flatMap((r) => SPEC[r]));

describe('roles and permissions (002 §6)', () => {
  describe.each(ROLES)('%s', (role) => {
    it('holds exactly its listed permissions and those of the roles below it', () => {
      expect([...permissionsOf(role)].sort()).toEqual([...cumulative(role)].sort());
    });

    it.each(ALL_PERMISSIONS.map((p) => [p]))('may %s only if listed', (permission) => {
      expect(can({ effectiveRole: role }, permission)).toBe(cumulative(role).has(permission));
    });
  });

  it('knows no permission beyond the listed ones', () => {
    expect([...ALL_PERMISSIONS].sort()).toEqual(ROLES.flatMap((r) => SPEC[r]).sort());
  });

  it('lets nobody without a membership do anything', () => {
    expect(ALL_PERMISSIONS.some((p) => can(null, p))).toBe(false);
  });

  it('lifts any product role to WORKSPACE_ADMIN with the admin flag', () => {
    expect(effectiveRole({ role: 'VIEWER', workspaceAdmin: true })).toBe('WORKSPACE_ADMIN');
    expect(effectiveRole({ role: 'CONTRIBUTOR', workspaceAdmin: false })).toBe('CONTRIBUTOR');
  });

  it.each([
    ['VIEWER', 'VIEWER', false, false],
    ['CONTRIBUTOR', 'VIEWER', false, true],
    ['CONTRIBUTOR', 'CONTRIBUTOR', false, true],
    ['CONTRIBUTOR', 'MANAGER', false, false],
    ['CONTRIBUTOR', 'VIEWER', true, false],
    ['MANAGER', 'MANAGER', false, true],
    ['MANAGER', 'CONTRIBUTOR', true, false],
    ['WORKSPACE_ADMIN', 'MANAGER', true, true],
  ] as const)('a %s may invite a %s (admin flag %s): %s', (inviter, role, workspaceAdmin, expected) => {
    expect(canInviteAs({ effectiveRole: inviter }, { role, workspaceAdmin })).toBe(expected);
  });
});

/** Operations over GraphQL and the least role that may run each. */
interface Operation {
  name: string;
  least: Role;
  query: string;
  variables: () => Record<string, unknown>;
}

describe('each role over GraphQL', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let ws: WorkspaceFixture;
  let subject: MemberFixture;
  let stranger: AuthPayload;
  const tokens = {} as Record<Role, string>;
  let n = 0;

  const OPERATIONS: Operation[] = [
    { name: 'members', least: 'VIEWER', query: '{ members { totalCount } }', variables: () => ({}) },
    { name: 'userGroups', least: 'VIEWER', query: '{ userGroups { id } }', variables: () => ({}) },
    {
      name: 'createApiToken',
      least: 'VIEWER',
      query: 'mutation($n: String!) { createApiToken(name: $n) { token } }',
      variables: () => ({ n: `token ${++n}` }),
    },
    { name: 'invites', least: 'CONTRIBUTOR', query: '{ invites { id } }', variables: () => ({}) },
    {
      name: 'inviteMembers as VIEWER',
      least: 'CONTRIBUTOR',
      query: INVITE_MEMBERS,
      variables: () => ({ input: { emails: [uniqueEmail()], role: 'VIEWER' } }),
    },
    {
      name: 'inviteMembers as CONTRIBUTOR',
      least: 'CONTRIBUTOR',
      query: INVITE_MEMBERS,
      variables: () => ({ input: { emails: [uniqueEmail()], role: 'CONTRIBUTOR' } }),
    },
    {
      name: 'inviteMembers as MANAGER',
      least: 'MANAGER',
      query: INVITE_MEMBERS,
      variables: () => ({ input: { emails: [uniqueEmail()], role: 'MANAGER' } }),
    },
    {
      name: 'inviteMembers as admin',
      least: 'WORKSPACE_ADMIN',
      query: INVITE_MEMBERS,
      variables: () => ({ input: { emails: [uniqueEmail()], role: 'VIEWER', workspaceAdmin: true } }),
    },
    { name: 'auditLog', least: 'WORKSPACE_ADMIN', query: '{ auditLog { nodes { id } } }', variables: () => ({}) },
    {
      name: 'createUserGroup',
      least: 'WORKSPACE_ADMIN',
      query: 'mutation($n: String!) { createUserGroup(name: $n) { id } }',
      variables: () => ({ n: `Group ${++n}` }),
    },
    {
      name: 'setAllowedDomains',
      least: 'WORKSPACE_ADMIN',
      query: 'mutation { setAllowedDomains(domains: []) { id } }',
      variables: () => ({}),
    },
    {
      name: 'updateWorkspace',
      least: 'WORKSPACE_ADMIN',
      query: 'mutation { updateWorkspace(input: { primaryColor: "#123456" }) { id } }',
      variables: () => ({}),
    },
    {
      name: 'updateMemberRole',
      least: 'WORKSPACE_ADMIN',
      query: 'mutation($u: ID!) { updateMemberRole(userId: $u, role: VIEWER, workspaceAdmin: false) { role } }',
      variables: () => ({ u: subject.user.id }),
    },
  ];

  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    ws = await createWorkspaceWithAdmin(server, mail);
    tokens.WORKSPACE_ADMIN = ws.admin.accessToken;
    for (const role of ['VIEWER', 'CONTRIBUTOR', 'MANAGER'] as const)
      tokens[role] = (await addMember(server, mail, ws, role)).accessToken;
    subject = await addMember(server, mail, ws, 'VIEWER');
    stranger = await signUpConfirmed(server, mail);
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const auditCount = async () =>
    Number(
      (
        (await server.fieldbook.db.owner('audit_log').where({ workspace_id: ws.id }).count({ n: '*' })) as Array<{
          n: number;
        }>
      )[0]!.n,
    );

  it.each(ROLES)('%s runs exactly the operations its role allows', async (role) => {
    const outcome: Record<string, 'allowed' | 'FORBIDDEN'> = {};
    for (const op of OPERATIONS) {
      const before = await auditCount();
      const res = await server.gql(op.query, op.variables(), { token: tokens[role], workspace: ws.id });
      if (res.errors) {
        expect(res.errors[0]!.extensions?.errorCode, `${role} ${op.name}: ${res.errors[0]!.message}`).toBe('FORBIDDEN');
        expect(await auditCount(), `${role} ${op.name} changed nothing`).toBe(before);
        outcome[op.name] = 'FORBIDDEN';
      } else {
        outcome[op.name] = 'allowed';
      }
    }
    const expected = Object.fromEntries(
      OPERATIONS.map((op) => [op.name, ROLES.indexOf(role) >= ROLES.indexOf(op.least) ? 'allowed' : 'FORBIDDEN']),
    );
    expect(outcome).toEqual(expected);
  });

  it('shows each member their role and permissions', async () => {
    for (const role of ROLES) {
      const res = await server.gql<{ myMembership: { effectiveRole: string; permissions: string[] } }>(
        '{ myMembership { effectiveRole permissions } }',
        {},
        { token: tokens[role], workspace: ws.id },
      );
      expect(res.data!.myMembership.effectiveRole).toBe(role);
      expect(res.data!.myMembership.permissions.sort()).toEqual([...cumulative(role)].sort());
    }
  });

  it('forbids every operation to a signed-in stranger and asks an anonymous caller to sign in', async () => {
    for (const op of OPERATIONS) {
      const asStranger = await server.gql(op.query, op.variables(), { token: stranger.accessToken, workspace: ws.id });
      expect(errorOf(asStranger).extensions?.errorCode, op.name).toBe('FORBIDDEN');
      const anonymous = await server.gql(op.query, op.variables(), { workspace: ws.id });
      expect(errorOf(anonymous).extensions?.errorCode, op.name).toBe('UNAUTHENTICATED');
    }
  });
});
