import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE } from '../../core/src/db/app-role.ts';
import { withTenant } from '../../core/src/db/tenancy.ts';
import { UserGroup } from '../../core/src/workspaces/models/index.ts';
import type { TestServer } from '../support/server.ts';
import type { TestMailServer } from '../support/smtp.ts';
import { addMember, createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../support/factories.ts';
import { startIdentityServer, stopIdentityServer } from './identity/support.ts';

/**
 * Row-level security is the tenancy boundary: a query that forgets its workspace filter still
 * sees only the rows of the workspace its transaction was opened for.
 */
describe('tenancy', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  const app = () => server.fieldbook.db.app;

  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    a = await createWorkspaceWithAdmin(server, mail, { teamName: 'Tenant Alpha' });
    b = await createWorkspaceWithAdmin(server, mail, { teamName: 'Tenant Beta' });
    for (const ws of [a, b]) {
      const as = gqlAs(server, ws.admin.accessToken, ws.id);
      for (const name of ['Researchers', 'Designers']) {
        const res = await as('mutation($n: String!) { createUserGroup(name: $n) { id } }', {
          n: `${name} of ${ws.name}`,
        });
        expect(res.errors).toBeUndefined();
      }
      await addMember(server, mail, ws, 'VIEWER');
    }
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('connects as the app role, which lacks BYPASSRLS and superuser rights and owns no table', async () => {
    const who = await app().raw('select current_user as name');
    expect(who.rows[0].name).toBe(APP_ROLE);
    const role = await server.fieldbook.db.owner.raw('select rolbypassrls, rolsuper from pg_roles where rolname = ?', [
      APP_ROLE,
    ]);
    expect(role.rows).toEqual([{ rolbypassrls: false, rolsuper: false }]);
    const owned = await server.fieldbook.db.owner.raw(
      `select c.relname from pg_class c join pg_roles r on r.oid = c.relowner
       where r.rolname = ? and c.relkind in ('r', 'p', 'v', 'm')`,
      [APP_ROLE],
    );
    expect(owned.rows).toEqual([]);
  });

  it('forces row-level security on every table that has a workspace_id', async () => {
    const tables = await server.fieldbook.db.owner.raw(
      `select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped
       where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    );
    const names = tables.rows.map((t: { table: string }) => t.table);
    expect(names).toEqual(
      expect.arrayContaining([
        'workspace_members',
        'user_groups',
        'user_group_members',
        'invites',
        'api_tokens',
        'audit_log',
      ]),
    );
    for (const t of tables.rows) expect(t, t.table).toMatchObject({ enabled: true, forced: true });
  });

  it("returns only the tenant's rows to a query with no workspace filter", async () => {
    for (const ws of [a, b]) {
      const rows = await withTenant(app(), { workspaceId: ws.id }, (trx) => trx.raw('select * from user_groups'));
      expect(rows.rows.map((r: { name: string }) => r.name).sort()).toEqual([
        `Designers of ${ws.name}`,
        `Researchers of ${ws.name}`,
      ]);
      const members = await withTenant(app(), { workspaceId: ws.id }, (trx) =>
        trx('workspace_members').select('workspace_id'),
      );
      expect(members).toHaveLength(2);
      expect(new Set(members.map((m) => m.workspace_id))).toEqual(new Set([ws.id]));
      const audit = await withTenant(app(), { workspaceId: ws.id }, (trx) => trx('audit_log').select('workspace_id'));
      expect(audit.length).toBeGreaterThan(0);
      expect(new Set(audit.map((e) => e.workspace_id))).toEqual(new Set([ws.id]));
      // The models go through the same transaction, so they are scoped too.
      const groups = await withTenant(app(), { workspaceId: ws.id }, async (trx) => UserGroup.query(trx));
      expect(groups.every((g) => g.workspaceId === ws.id)).toBe(true);
    }
    // Even asking for the other workspace's rows by id finds nothing.
    const leaked = await withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('user_groups').where({ workspace_id: b.id }),
    );
    expect(leaked).toEqual([]);
  });

  it('returns no tenant rows at all without a tenant', async () => {
    for (const table of ['user_groups', 'user_group_members', 'audit_log', 'api_tokens', 'invites']) {
      // workspace_id: every one has it, and the request role may read it (secrets it may not).
      const rows = await withTenant(app(), {}, (trx) => trx(table).select('workspace_id'));
      expect(rows, table).toEqual([]);
    }
    expect(await app()('user_groups').select('*')).toEqual([]);
    expect(await app()('audit_log').select('*')).toEqual([]);
  });

  it('refuses to write a row for another workspace, and to move a row there', async () => {
    const insert = withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('user_groups').insert({ workspace_id: b.id, name: 'Smuggled' }),
    );
    await expect(insert).rejects.toThrow(/row-level security/);
    const audit = withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('audit_log').insert({ workspace_id: b.id, kind: 'WORKSPACE' }),
    );
    await expect(audit).rejects.toThrow(/row-level security/);
    const move = withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('user_groups').where({ workspace_id: a.id }).update({ workspace_id: b.id }),
    );
    await expect(move).rejects.toThrow(/row-level security/);
    // Updating or deleting the other workspace's rows touches nothing.
    const deleted = await withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('user_groups').where({ workspace_id: b.id }).delete(),
    );
    expect(deleted).toBe(0);
    expect(await server.fieldbook.db.owner('user_groups').where({ workspace_id: b.id }).count({ n: '*' })).toEqual([
      { n: 2 },
    ]);
    expect(await server.fieldbook.db.owner('user_groups').where({ name: 'Smuggled' })).toEqual([]);
  });

  it("lets a person read their own memberships in every workspace, and nobody else's", async () => {
    const mine = await withTenant(app(), { userId: a.admin.user.id }, (trx) =>
      trx('workspace_members').select('workspace_id', 'user_id'),
    );
    expect(mine).toEqual([{ workspace_id: a.id, user_id: a.admin.user.id }]);
    // Reading is all that widens: the person cannot add themselves to B.
    const join = withTenant(app(), { userId: a.admin.user.id }, (trx) =>
      trx('workspace_members').insert({
        workspace_id: b.id,
        user_id: a.admin.user.id,
        role: 'MANAGER',
        workspace_admin: true,
      }),
    );
    await expect(join).rejects.toThrow(/row-level security/);
  });

  it('never carries one workspace into the next transaction on a pooled connection', async () => {
    for (let i = 0; i < 5; i++) {
      const scoped = await withTenant(app(), { workspaceId: i % 2 ? a.id : b.id }, (trx) =>
        trx('user_groups').count({ n: '*' }),
      );
      expect(scoped).toEqual([{ n: 2 }]);
      const unscoped = await withTenant(app(), {}, (trx) => trx('user_groups').count({ n: '*' }));
      expect(unscoped).toEqual([{ n: 0 }]);
    }
  });
});
