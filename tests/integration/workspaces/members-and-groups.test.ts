import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  addMember,
  createWorkspaceWithAdmin,
  fillWorkspace,
  gqlAs,
  type MemberFixture,
  type WorkspaceFixture,
} from '../../support/factories.ts';
import { errorOf, startIdentityServer, stopIdentityServer } from '../identity/support.ts';

const MEMBERS = `query($first: Int, $after: String, $search: String) {
  members(first: $first, after: $after, search: $search) { totalCount endCursor nodes { user { id email name } role workspaceAdmin effectiveRole joinedAt } }
}`;
const UPDATE_ROLE = `mutation($u: ID!, $r: ProductRole!, $a: Boolean!) {
  updateMemberRole(userId: $u, role: $r, workspaceAdmin: $a) { user { id } role workspaceAdmin effectiveRole }
}`;
const REMOVE = 'mutation($u: ID!) { removeMember(userId: $u) }';
const CREATE_GROUP = 'mutation($n: String!) { createUserGroup(name: $n) { id name memberCount members { id } } }';
const SET_GROUP_MEMBERS =
  'mutation($id: ID!, $u: [ID!]!) { setUserGroupMembers(id: $id, userIds: $u) { id memberCount members { id } } }';

interface MembersPage {
  members: {
    totalCount: number;
    endCursor: string | null;
    nodes: Array<{
      user: { id: string; email: string; name: string };
      role: string;
      workspaceAdmin: boolean;
      effectiveRole: string;
    }>;
  };
}

describe('members and user groups', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let ws: WorkspaceFixture;
  let viewer: MemberFixture;
  let contributor: MemberFixture;
  let asAdmin: ReturnType<typeof gqlAs>;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    ws = await createWorkspaceWithAdmin(server, mail);
    asAdmin = gqlAs(server, ws.admin.accessToken, ws.id);
    viewer = await addMember(server, mail, ws, 'VIEWER');
    contributor = await addMember(server, mail, ws, 'CONTRIBUTOR');
    await server.gql(
      'mutation { updateProfile(name: "Zed Contributor") { name } }',
      {},
      { token: contributor.accessToken },
    );
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('lists members to every member, searchable by name or email, a page at a time', async () => {
    const all = await gqlAs(server, viewer.accessToken, ws.id)<MembersPage>(MEMBERS, {});
    expect(all.errors).toBeUndefined();
    expect(all.data!.members.totalCount).toBe(3);
    expect(all.data!.members.nodes.map((n) => n.effectiveRole).sort()).toEqual([
      'CONTRIBUTOR',
      'VIEWER',
      'WORKSPACE_ADMIN',
    ]);

    const found = await asAdmin<MembersPage>(MEMBERS, { search: 'zed contrib' });
    expect(found.data!.members.nodes.map((n) => n.user.id)).toEqual([contributor.user.id]);
    const byEmail = await asAdmin<MembersPage>(MEMBERS, { search: viewer.user.email.slice(0, 12).toUpperCase() });
    expect(byEmail.data!.members.nodes.map((n) => n.user.id)).toContain(viewer.user.id);
    expect((await asAdmin<MembersPage>(MEMBERS, { search: '%' })).data!.members.totalCount).toBe(0);

    const first = await asAdmin<MembersPage>(MEMBERS, { first: 2 });
    expect(first.data!.members.nodes).toHaveLength(2);
    expect(first.data!.members.endCursor).not.toBeNull();
    const rest = await asAdmin<MembersPage>(MEMBERS, { first: 2, after: first.data!.members.endCursor });
    expect(rest.data!.members.nodes).toHaveLength(1);
    expect(rest.data!.members.endCursor).toBeNull();
    const ids = [...first.data!.members.nodes, ...rest.data!.members.nodes].map((n) => n.user.id);
    expect(new Set(ids).size).toBe(3);

    expect(errorOf(await asAdmin(MEMBERS, { first: 201 })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'first',
    });
  });

  it('changes a role (admins only), audited with the old and new values', async () => {
    const promoted = await asAdmin(UPDATE_ROLE, { u: viewer.user.id, r: 'MANAGER', a: false });
    expect(promoted.data).toEqual({
      updateMemberRole: {
        user: { id: viewer.user.id },
        role: 'MANAGER',
        workspaceAdmin: false,
        effectiveRole: 'MANAGER',
      },
    });
    const audit = await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: ws.id, kind: 'ROLE_CHANGE', subject_id: viewer.user.id });
    expect(audit.map((a) => a.metadata)).toEqual([
      { old: { role: 'VIEWER', workspaceAdmin: false }, new: { role: 'MANAGER', workspaceAdmin: false } },
    ]);
    // The new role applies to the very next request.
    const me = await gqlAs(server, viewer.accessToken, ws.id)('{ myMembership { effectiveRole } }');
    expect(me.data).toEqual({ myMembership: { effectiveRole: 'MANAGER' } });
    // A manager is no admin: they may not change roles.
    expect(
      errorOf(
        await gqlAs(server, viewer.accessToken, ws.id)(UPDATE_ROLE, { u: contributor.user.id, r: 'MANAGER', a: true }),
      ).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    await asAdmin(UPDATE_ROLE, { u: viewer.user.id, r: 'VIEWER', a: false });
  });

  it('never demotes or removes the last workspace admin', async () => {
    const demote = errorOf(await asAdmin(UPDATE_ROLE, { u: ws.admin.user.id, r: 'MANAGER', a: false }));
    expect(demote).toMatchObject({
      message: 'A workspace needs at least one workspace admin. Make someone else an admin first.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'workspaceAdmin' },
    });
    const remove = errorOf(await asAdmin(REMOVE, { u: ws.admin.user.id }));
    expect(remove).toMatchObject({ extensions: { errorCode: 'BAD_USER_INPUT', field: 'userId' } });
    const row = await server.fieldbook.db
      .owner('workspace_members')
      .where({ workspace_id: ws.id, user_id: ws.admin.user.id })
      .first();
    expect(row).toMatchObject({ role: 'MANAGER', workspace_admin: true });

    // With a second admin, the first may step down; then the second is the last one.
    const second = await addMember(server, mail, ws, 'MANAGER', { workspaceAdmin: true });
    const asSecond = gqlAs(server, second.accessToken, ws.id);
    expect((await asAdmin(UPDATE_ROLE, { u: ws.admin.user.id, r: 'MANAGER', a: false })).data).toMatchObject({
      updateMemberRole: { effectiveRole: 'MANAGER' },
    });
    expect(errorOf(await asSecond(UPDATE_ROLE, { u: second.user.id, r: 'MANAGER', a: false })).extensions?.field).toBe(
      'workspaceAdmin',
    );
    expect((await asSecond(UPDATE_ROLE, { u: ws.admin.user.id, r: 'MANAGER', a: true })).errors).toBeUndefined();
    expect((await asSecond(REMOVE, { u: second.user.id })).data).toEqual({ removeMember: true });
  });

  it('removes a member with their group memberships and API tokens; anyone may leave', async () => {
    const leaver = await addMember(server, mail, ws, 'CONTRIBUTOR');
    const removed = await addMember(server, mail, ws, 'VIEWER');
    const group = await asAdmin<{ createUserGroup: { id: string } }>(CREATE_GROUP, { n: 'Leavers' });
    await asAdmin(SET_GROUP_MEMBERS, { id: group.data!.createUserGroup.id, u: [leaver.user.id, removed.user.id] });
    const token = await gqlAs(
      server,
      removed.accessToken,
      ws.id,
    )<{ createApiToken: { token: string } }>('mutation { createApiToken(name: "mine") { token } }');

    expect(
      errorOf(await gqlAs(server, leaver.accessToken, ws.id)(REMOVE, { u: removed.user.id })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect((await gqlAs(server, leaver.accessToken, ws.id)(REMOVE, { u: leaver.user.id })).data).toEqual({
      removeMember: true,
    });
    expect((await asAdmin(REMOVE, { u: removed.user.id })).data).toEqual({ removeMember: true });

    const db = server.fieldbook.db.owner;
    expect(
      await db('workspace_members')
        .where({ workspace_id: ws.id })
        .whereIn('user_id', [leaver.user.id, removed.user.id]),
    ).toEqual([]);
    expect(await db('user_group_members').where({ group_id: group.data!.createUserGroup.id })).toEqual([]);
    const apiToken = await server.gql('{ me { id } }', {}, { token: token.data!.createApiToken.token });
    expect(errorOf(apiToken).extensions?.errorCode).toBe('UNAUTHENTICATED');
    const audit = await db('audit_log')
      .where({ workspace_id: ws.id, kind: 'MEMBER_REMOVED' })
      .whereIn('subject_id', [leaver.user.id, removed.user.id])
      .orderBy('created_at');
    expect(audit.map((a) => [a.subject_id, a.metadata.left])).toEqual([
      [leaver.user.id, true],
      [removed.user.id, false],
    ]);
    expect(errorOf(await asAdmin(REMOVE, { u: removed.user.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('manages user groups (admins): create, rename, members, delete, each audited; names are unique', async () => {
    const created = await asAdmin<{ createUserGroup: { id: string; name: string; memberCount: number } }>(
      CREATE_GROUP,
      { n: 'Researchers' },
    );
    expect(created.data!.createUserGroup).toMatchObject({ name: 'Researchers', memberCount: 0 });
    const id = created.data!.createUserGroup.id;
    expect(errorOf(await asAdmin(CREATE_GROUP, { n: 'researchers' }))).toMatchObject({
      message: 'A group with this name already exists.',
      extensions: { field: 'name' },
    });
    expect(errorOf(await asAdmin(CREATE_GROUP, { n: 'x'.repeat(101) }))).toMatchObject({
      message: 'A group name can be at most 100 characters long.',
      extensions: { field: 'name' },
    });

    const set = await asAdmin(SET_GROUP_MEMBERS, { id, u: [viewer.user.id, contributor.user.id, viewer.user.id] });
    expect(set.data).toMatchObject({ setUserGroupMembers: { memberCount: 2 } });
    const me = await gqlAs(server, viewer.accessToken, ws.id)('{ myMembership { groupIds } }');
    expect(me.data).toEqual({ myMembership: { groupIds: [id] } });

    const renamed = await asAdmin('mutation($id: ID!, $n: String!) { renameUserGroup(id: $id, name: $n) { name } }', {
      id,
      n: 'Research crew',
    });
    expect(renamed.data).toEqual({ renameUserGroup: { name: 'Research crew' } });
    const listed = await gqlAs(
      server,
      viewer.accessToken,
      ws.id,
    )<{ userGroups: Array<{ id: string; memberCount: number }> }>('{ userGroups { id name memberCount } }');
    expect(listed.data!.userGroups.find((g) => g.id === id)).toMatchObject({ memberCount: 2 });
    expect(
      errorOf(await gqlAs(server, contributor.accessToken, ws.id)(CREATE_GROUP, { n: 'Mine' })).extensions?.errorCode,
    ).toBe('FORBIDDEN');

    expect((await asAdmin('mutation($id: ID!) { deleteUserGroup(id: $id) }', { id })).data).toEqual({
      deleteUserGroup: true,
    });
    const audit = await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: ws.id, kind: 'USER_GROUP', subject_id: id })
      .orderBy('created_at');
    expect(audit.map((a) => a.metadata.action)).toEqual(['created', 'members', 'renamed', 'deleted']);
  });

  it('keeps groups to members of the workspace', async () => {
    const group = await asAdmin<{ createUserGroup: { id: string } }>(CREATE_GROUP, { n: 'Members only' });
    const other = await createWorkspaceWithAdmin(server, mail);
    const err = errorOf(
      await asAdmin(SET_GROUP_MEMBERS, {
        id: group.data!.createUserGroup.id,
        u: [viewer.user.id, other.admin.user.id],
      }),
    );
    expect(err).toMatchObject({
      message: 'Only members of this workspace can be in its groups.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'userIds' },
    });
    expect(
      await server.fieldbook.db.owner('user_group_members').where({ group_id: group.data!.createUserGroup.id }),
    ).toEqual([]);
  });

  it('allows 200 members per group and 50 groups per workspace, and not one more', async () => {
    const limited = await createWorkspaceWithAdmin(server, mail);
    const as = gqlAs(server, limited.admin.accessToken, limited.id);
    const people = await fillWorkspace(server, limited.id, 201);
    const group = await as<{ createUserGroup: { id: string } }>(CREATE_GROUP, { n: 'Big group' });
    const id = group.data!.createUserGroup.id;
    const full = await as(SET_GROUP_MEMBERS, { id, u: people.slice(0, 200) });
    expect(full.data).toMatchObject({ setUserGroupMembers: { memberCount: 200 } });
    const over = errorOf(await as(SET_GROUP_MEMBERS, { id, u: people }));
    expect(over).toMatchObject({
      message: 'A user group can have at most 200 members.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'userIds' },
    });
    expect(await server.fieldbook.db.owner('user_group_members').where({ group_id: id }).count({ n: '*' })).toEqual([
      { n: 200 },
    ]);

    for (let i = 2; i <= 50; i++) {
      const res = await as(CREATE_GROUP, { n: `Group ${i}` });
      expect(res.errors, `group ${i}`).toBeUndefined();
    }
    const fiftyFirst = errorOf(await as(CREATE_GROUP, { n: 'Group 51' }));
    expect(fiftyFirst).toMatchObject({
      message: 'A workspace can have at most 50 user groups.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'userGroups' },
    });
    expect(
      await server.fieldbook.db.owner('user_groups').where({ workspace_id: limited.id }).count({ n: '*' }),
    ).toEqual([{ n: 50 }]);
  });
});
