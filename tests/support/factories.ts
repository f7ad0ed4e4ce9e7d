import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ProductRole } from '../../core/src/permissions/roles.ts';
import { signUpConfirmed, uniqueEmail, type AuthPayload } from '../integration/identity/support.ts';
import type { GqlResult, TestServer } from './server.ts';
import type { TestMailServer } from './smtp.ts';

/**
 * Factories that build workspaces and members through the real API: sign-up with a mailed
 * confirmation, createWorkspace, and invites accepted from the link that arrives by mail.
 */

export interface WorkspaceFixture {
  id: string;
  name: string;
  subdomain: string;
  /** The person who created it: a WorkspaceAdmin. */
  admin: AuthPayload;
}

export interface MemberFixture {
  user: AuthPayload['user'];
  accessToken: string;
  role: ProductRole;
  workspaceAdmin: boolean;
}

export const CREATE_WORKSPACE = `mutation($input: CreateWorkspaceInput!) {
  createWorkspace(input: $input) {
    redirectUrl healthCheckUrl
    workspace { id name subdomain region url memberCount allowedDomains publicLinksDisabled }
    membership { role workspaceAdmin effectiveRole permissions groupIds }
  }
}`;

export const INVITE_MEMBERS = `mutation($input: InviteMembersInput!) {
  inviteMembers(input: $input) { id email role workspaceAdmin message expiresAt invitedBy { id name } }
}`;

export const ACCEPT_INVITE = `mutation($token: String!) {
  acceptInvite(token: $token) { role workspaceAdmin effectiveRole workspace { id name } }
}`;

/** A unique, valid workspace name. */
export const uniqueTeamName = (label = 'Team'): string => `${label} ${randomBytes(3).toString('hex')}`;

/** Signs a new person up and has them create a workspace; they become its WorkspaceAdmin. */
export async function createWorkspaceWithAdmin(
  server: TestServer,
  mail: TestMailServer,
  opts: { teamName?: string; subdomain?: string; region?: string; admin?: AuthPayload } = {},
): Promise<WorkspaceFixture> {
  const admin = opts.admin ?? (await signUpConfirmed(server, mail, uniqueEmail('admin')));
  const res = await server.gql<{ createWorkspace: { workspace: { id: string; name: string; subdomain: string } } }>(
    CREATE_WORKSPACE,
    {
      input: {
        method: 'AUTH0',
        teamName: opts.teamName ?? uniqueTeamName(),
        subdomain: opts.subdomain,
        region: opts.region,
      },
    },
    { token: admin.accessToken },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  const { id, name, subdomain } = res.data!.createWorkspace.workspace;
  return { id, name, subdomain, admin };
}

/** The link token of the newest invite mailed to `email`. */
export async function inviteTokenFromMail(mail: TestMailServer, email: string): Promise<string> {
  const message = await mail.waitForMail(email, (m) => m.subject.includes('invited you'));
  const token = mail.linkIn(message, 'http://localhost:3000/auth/accept-invite').searchParams.get('token');
  expect(token).toBeTruthy();
  return token!;
}

/**
 * Adds a new person to the workspace with `role`: the admin invites them, the invite arrives by
 * mail, and they accept it from its link.
 */
export async function addMember(
  server: TestServer,
  mail: TestMailServer,
  workspace: WorkspaceFixture,
  role: ProductRole,
  opts: { workspaceAdmin?: boolean; email?: string } = {},
): Promise<MemberFixture> {
  const person = await signUpConfirmed(server, mail, opts.email ?? uniqueEmail(role.toLowerCase()));
  const workspaceAdmin = opts.workspaceAdmin ?? false;
  const invited = await server.gql(
    INVITE_MEMBERS,
    { input: { emails: [person.user.email], role, workspaceAdmin } },
    { token: workspace.admin.accessToken, workspace: workspace.id },
  );
  expect(invited.errors, JSON.stringify(invited.errors)).toBeUndefined();
  const token = await inviteTokenFromMail(mail, person.user.email);
  const accepted = await server.gql(ACCEPT_INVITE, { token }, { token: person.accessToken });
  expect(accepted.errors, JSON.stringify(accepted.errors)).toBeUndefined();
  return { user: person.user, accessToken: person.accessToken, role, workspaceAdmin };
}

/** GraphQL as one signed-in person addressing one workspace. */
export function gqlAs(server: TestServer, accessToken: string, workspaceId: string) {
  return <T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<GqlResult<T>> =>
    server.gql<T>(query, variables, { token: accessToken, workspace: workspaceId });
}

/**
 * Fills a workspace with `count` extra members straight through the owner connection, for the
 * limit tests that need thousands of people (signing each up would take minutes).
 */
export async function fillWorkspace(
  server: TestServer,
  workspaceId: string,
  count: number,
  role: ProductRole = 'VIEWER',
): Promise<string[]> {
  const db = server.fieldbook.db.owner;
  const tag = randomBytes(3).toString('hex');
  const users = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    email: `filler-${tag}-${i}@example.com`,
    name: `Filler ${i}`,
  }));
  for (let i = 0; i < users.length; i += 1000) await db('users').insert(users.slice(i, i + 1000));
  const members = users.map((u) => ({ workspace_id: workspaceId, user_id: u.id, role }));
  for (let i = 0; i < members.length; i += 1000) await db('workspace_members').insert(members.slice(i, i + 1000));
  return users.map((u) => u.id);
}
