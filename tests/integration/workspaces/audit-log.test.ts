import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  addMember,
  createWorkspaceWithAdmin,
  gqlAs,
  INVITE_MEMBERS,
  type WorkspaceFixture,
} from '../../support/factories.ts';
import { errorOf, uniqueEmail, startIdentityServer, stopIdentityServer } from '../identity/support.ts';

const AUDIT = `query($first: Int, $after: String) {
  auditLog(first: $first, after: $after) { endCursor nodes { id kind actor { id } subjectType subjectId metadata createdAt } }
}`;

interface AuditPage {
  auditLog: {
    endCursor: string | null;
    nodes: Array<{
      id: string;
      kind: string;
      actor: { id: string } | null;
      subjectType: string;
      subjectId: string;
      metadata: Record<string, unknown>;
    }>;
  };
}

describe('audit log (001 §3.11)', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let ws: WorkspaceFixture;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    ws = await createWorkspaceWithAdmin(server, mail);
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('records role, invite, group, domain and API token changes, newest first, for admins to read', async () => {
    const as = gqlAs(server, ws.admin.accessToken, ws.id);
    const member = await addMember(server, mail, ws, 'VIEWER');
    await as('mutation($u: ID!) { updateMemberRole(userId: $u, role: CONTRIBUTOR, workspaceAdmin: false) { role } }', {
      u: member.user.id,
    });
    await as('mutation { createUserGroup(name: "Audited") { id } }');
    await as('mutation { setAllowedDomains(domains: ["audited.test"]) { id } }');
    await as('mutation { createApiToken(name: "audit") { token } }');

    const res = await as<AuditPage>(AUDIT, { first: 50 });
    expect(res.errors).toBeUndefined();
    expect(res.data!.auditLog.nodes.map((n) => n.kind)).toEqual([
      'API_TOKEN',
      'DOMAINS',
      'USER_GROUP',
      'ROLE_CHANGE',
      'MEMBER_ADDED',
      'INVITE',
      'WORKSPACE',
    ]);
    const roleChange = res.data!.auditLog.nodes.find((n) => n.kind === 'ROLE_CHANGE')!;
    expect(roleChange).toMatchObject({
      actor: { id: ws.admin.user.id },
      subjectType: 'user',
      subjectId: member.user.id,
      metadata: { old: { role: 'VIEWER', workspaceAdmin: false }, new: { role: 'CONTRIBUTOR', workspaceAdmin: false } },
    });
    expect(JSON.stringify(res.data)).not.toMatch(/secret|token_hash/i);
  });

  it('pages with a cursor, never repeating or skipping an entry', async () => {
    const as = gqlAs(server, ws.admin.accessToken, ws.id);
    for (let i = 0; i < 4; i++) await as(INVITE_MEMBERS, { input: { emails: [uniqueEmail()], role: 'VIEWER' } });
    const all = (await as<AuditPage>(AUDIT, { first: 200 })).data!.auditLog.nodes.map((n) => n.id);
    const paged: string[] = [];
    let after: string | null = null;
    do {
      const page: AuditPage = (await as<AuditPage>(AUDIT, { first: 3, after })).data!;
      paged.push(...page.auditLog.nodes.map((n) => n.id));
      after = page.auditLog.endCursor;
    } while (after);
    expect(paged).toEqual(all);
    expect(errorOf(await as(AUDIT, { after: 'bogus' })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'after',
    });
  });

  it('is readable by workspace admins only', async () => {
    for (const role of ['VIEWER', 'CONTRIBUTOR', 'MANAGER'] as const) {
      const member = await addMember(server, mail, ws, role);
      const err = errorOf(await gqlAs(server, member.accessToken, ws.id)(AUDIT));
      expect(err.extensions?.errorCode, role).toBe('FORBIDDEN');
    }
    const other = await createWorkspaceWithAdmin(server, mail);
    // An admin of another workspace reads only that workspace's log.
    const theirs = await gqlAs(server, other.admin.accessToken, other.id)<AuditPage>(AUDIT);
    expect(theirs.data!.auditLog.nodes.map((n) => n.kind)).toEqual(['WORKSPACE']);
    expect(errorOf(await gqlAs(server, other.admin.accessToken, ws.id)(AUDIT)).extensions?.errorCode).toBe('FORBIDDEN');
  });
});
