import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { addMember, createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../../support/factories.ts';
import { HASHING_TIMEOUT_MS, startIdentityServer, stopIdentityServer } from '../identity/support.ts';

const MY_MEMBERSHIP = '{ myMembership { effectiveRole groupIds workspace { name } } }';
const MEMBERS = '{ members(first: 1) { totalCount } }';

interface MyMembership {
  myMembership: { effectiveRole: string; groupIds: string[]; workspace: { name: string } } | null;
}

/**
 * Requests do not read the caller's membership nor the workspace each time; these tests show that
 * a role change, a removal, a group change and a rename still take effect at once, in the process
 * that made the change and in another process on the same database, and that a change made
 * straight in the database (as a cascade would) reaches both.
 */
describe('memberships and workspaces kept in memory', () => {
  let a: TestServer;
  let b: TestServer;
  let mail: TestMailServer;
  let ws: WorkspaceFixture;
  beforeAll(async () => {
    ({ server: a, mail } = await startIdentityServer());
    b = await startTestServer({ databaseUrl: a.fieldbook.config.databaseUrl });
    ws = await createWorkspaceWithAdmin(a, mail);
  }, HASHING_TIMEOUT_MS);
  afterAll(async () => {
    await b?.close();
    await stopIdentityServer({ server: a, mail });
  });

  /** Another process hears of a change through NOTIFY, a moment later. */
  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    let value = await read();
    for (let i = 0; i < 100 && !ok(value); i++) {
      await new Promise((r) => setTimeout(r, 50));
      value = await read();
    }
    return value;
  }

  it('answers from memory: no workspace or membership read per request', async () => {
    const member = await addMember(a, mail, ws, 'VIEWER');
    const as = gqlAs(a, member.accessToken, ws.id);
    expect((await as<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.effectiveRole).toBe('VIEWER');
    /** The statements of five requests in a row. */
    const fiveRequests = async () => {
      const queries: string[] = [];
      const listen = (q: { sql: string }) => queries.push(q.sql);
      a.fieldbook.db.app.on('query', listen);
      try {
        for (let i = 0; i < 5; i++)
          expect((await as<{ members: { totalCount: number } }>(MEMBERS)).data?.members.totalCount).toBe(2);
      } finally {
        a.fieldbook.db.app.off('query', listen);
      }
      return queries;
    };
    const lookups = (queries: string[]) =>
      queries.filter((sql) => sql.includes('app_membership') || /from "workspaces"/.test(sql));
    // The database's notice of the join itself may arrive after the first request kept the
    // membership, and evict it once; after that the requests answer from memory.
    const queries = await eventually(fiveRequests, (q) => lookups(q).length === 0);
    expect(lookups(queries)).toEqual([]);
    // One transaction per request: its begin, its scope, the query, its commit.
    expect(queries.filter((sql) => /^begin/i.test(sql))).toHaveLength(5);
  });

  it(
    'refuses a removed member at once, here and in another process',
    async () => {
      const member = await addMember(a, mail, ws, 'CONTRIBUTOR');
      const here = gqlAs(a, member.accessToken, ws.id);
      const there = gqlAs(b, member.accessToken, ws.id);
      expect((await here(MEMBERS)).errors).toBeUndefined();
      expect((await there(MEMBERS)).errors).toBeUndefined();

      const removed = await gqlAs(
        a,
        ws.admin.accessToken,
        ws.id,
      )('mutation($u: ID!) { removeMember(userId: $u) }', { u: member.user.id });
      expect(removed.errors).toBeUndefined();

      expect((await here(MEMBERS)).errors?.[0]?.extensions?.errorCode).toBe('FORBIDDEN');
      const answer = await eventually(
        () => there(MEMBERS),
        (r) => r.errors !== undefined,
      );
      expect(answer.errors?.[0]?.extensions?.errorCode).toBe('FORBIDDEN');
      expect((await there<MyMembership>(MY_MEMBERSHIP)).data?.myMembership).toBeNull();
    },
    HASHING_TIMEOUT_MS,
  );

  it(
    'takes a role change at once, here and in another process',
    async () => {
      const member = await addMember(a, mail, ws, 'CONTRIBUTOR');
      const here = gqlAs(a, member.accessToken, ws.id);
      const there = gqlAs(b, member.accessToken, ws.id);
      expect((await there<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.effectiveRole).toBe('CONTRIBUTOR');
      expect((await here<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.effectiveRole).toBe('CONTRIBUTOR');

      const changed = await gqlAs(
        a,
        ws.admin.accessToken,
        ws.id,
      )('mutation($u: ID!) { updateMemberRole(userId: $u, role: VIEWER, workspaceAdmin: false) { role } }', {
        u: member.user.id,
      });
      expect(changed.errors).toBeUndefined();
      expect((await here<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.effectiveRole).toBe('VIEWER');
      const answer = await eventually(
        () => there<MyMembership>(MY_MEMBERSHIP),
        (r) => r.data?.myMembership?.effectiveRole === 'VIEWER',
      );
      expect(answer.data?.myMembership?.effectiveRole).toBe('VIEWER');
    },
    HASHING_TIMEOUT_MS,
  );

  it(
    'takes a group change and a rename at once here, and in another process',
    async () => {
      const member = await addMember(a, mail, ws, 'VIEWER');
      const admin = gqlAs(a, ws.admin.accessToken, ws.id);
      const here = gqlAs(a, member.accessToken, ws.id);
      const there = gqlAs(b, member.accessToken, ws.id);
      expect((await there<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.groupIds).toEqual([]);
      expect((await here<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.groupIds).toEqual([]);

      const group = await admin<{ createUserGroup: { id: string } }>(
        'mutation { createUserGroup(name: "Interviewers") { id } }',
      );
      const groupId = group.data!.createUserGroup.id;
      expect(
        (
          await admin('mutation($id: ID!, $u: [ID!]!) { setUserGroupMembers(id: $id, userIds: $u) { id } }', {
            id: groupId,
            u: [member.user.id],
          })
        ).errors,
      ).toBeUndefined();
      expect((await here<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.groupIds).toEqual([groupId]);
      expect(
        (
          await eventually(
            () => there<MyMembership>(MY_MEMBERSHIP),
            (r) => r.data?.myMembership?.groupIds.length === 1,
          )
        ).data?.myMembership?.groupIds,
      ).toEqual([groupId]);

      expect((await admin('mutation($id: ID!) { deleteUserGroup(id: $id) }', { id: groupId })).errors).toBeUndefined();
      expect((await here<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.groupIds).toEqual([]);
      expect(
        (
          await eventually(
            () => there<MyMembership>(MY_MEMBERSHIP),
            (r) => r.data?.myMembership?.groupIds.length === 0,
          )
        ).data?.myMembership?.groupIds,
      ).toEqual([]);

      const renamed = await admin('mutation { updateWorkspace(input: { name: "Renamed Research" }) { name } }');
      expect(renamed.errors).toBeUndefined();
      expect((await here<MyMembership>(MY_MEMBERSHIP)).data?.myMembership?.workspace.name).toBe('Renamed Research');
      const answer = await eventually(
        () => there<MyMembership>(MY_MEMBERSHIP),
        (r) => r.data?.myMembership?.workspace.name === 'Renamed Research',
      );
      expect(answer.data?.myMembership?.workspace.name).toBe('Renamed Research');
    },
    HASHING_TIMEOUT_MS,
  );

  it(
    'hears of a membership deleted straight in the database, in every process',
    async () => {
      const member = await addMember(a, mail, ws, 'VIEWER');
      const here = gqlAs(a, member.accessToken, ws.id);
      const there = gqlAs(b, member.accessToken, ws.id);
      expect((await here(MEMBERS)).errors).toBeUndefined();
      expect((await there(MEMBERS)).errors).toBeUndefined();

      await a.fieldbook.db.owner('workspace_members').where({ workspace_id: ws.id, user_id: member.user.id }).delete();

      for (const server of [here, there]) {
        const answer = await eventually(
          () => server(MEMBERS),
          (r) => r.errors !== undefined,
        );
        expect(answer.errors?.[0]?.extensions?.errorCode).toBe('FORBIDDEN');
      }
    },
    HASHING_TIMEOUT_MS,
  );
});
