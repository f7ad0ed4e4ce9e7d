import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  STRONG_PASSWORD,
  signIn,
  signUpConfirmed,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from './support.ts';

const TEAMS = '{ availableTeams { id type name subdomain inviteId invitedBy sortKey } }';

describe('available teams', () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  // Rows are made with the owner connection, as the workspaces module would make them.
  const db = () => server.fieldbook.db.owner;
  const workspace = async (name: string, allowedDomains: string[] = [], createdAt = new Date()) => {
    const [row] = await db()('workspaces')
      .insert({
        name,
        subdomain: `${name.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(3).toString('hex')}`,
        allowed_domains: allowedDomains,
        created_at: createdAt,
      })
      .returning('*');
    return row as { id: string; subdomain: string };
  };
  const member = (workspaceId: string, userId: string, createdAt = new Date()) =>
    db()('workspace_members').insert({
      workspace_id: workspaceId,
      user_id: userId,
      role: 'CONTRIBUTOR',
      created_at: createdAt,
    });
  const invite = async (
    workspaceId: string,
    email: string,
    invitedBy: string | null,
    extra: Record<string, unknown> = {},
  ) => {
    const [row] = await db()('invites')
      .insert({
        workspace_id: workspaceId,
        email,
        role: 'VIEWER',
        invited_by: invitedBy,
        token_hash: randomBytes(32).toString('hex'),
        expires_at: new Date(Date.now() + 86_400_000),
        ...extra,
      })
      .returning('id');
    return (row as { id: string }).id;
  };

  it('lists memberships, pending invites with their inviter, and workspaces open to the email domain, newest first', async () => {
    const domain = `acme-${randomBytes(3).toString('hex')}.test`;
    const me = await signUpConfirmed(server, mail, `pat@${domain}`);
    const inviter = await signUpConfirmed(server, mail);
    await server.gql('mutation { updateProfile(name: "Rita Inviter") { name } }', {}, { token: inviter.accessToken });

    const joined = await workspace('Joined');
    await member(joined.id, me.user.id, new Date(Date.now() - 3 * 86_400_000));
    const invitedTo = await workspace('Invited');
    const inviteId = await invite(invitedTo.id, `PAT@${domain.toUpperCase()}`, inviter.user.id, {
      created_at: new Date(Date.now() - 86_400_000),
    });
    const byDomain = await workspace('Domain', [domain], new Date(Date.now() - 2 * 86_400_000));
    const domainAndMember = await workspace('Both', [`@${domain}`]);
    await member(domainAndMember.id, me.user.id);
    const revoked = await workspace('Revoked');
    await invite(revoked.id, `pat@${domain}`, inviter.user.id, { revoked_at: new Date() });
    const expired = await workspace('Expired');
    await invite(expired.id, `pat@${domain}`, inviter.user.id, { expires_at: new Date(Date.now() - 1000) });
    const accepted = await workspace('Accepted');
    await invite(accepted.id, `pat@${domain}`, inviter.user.id, { accepted_at: new Date() });
    await workspace('Unrelated', ['other.test']);

    const res = await server.gql<{ availableTeams: Array<Record<string, unknown>> }>(
      TEAMS,
      {},
      { token: me.accessToken },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.availableTeams.map((t) => [t.name, t.type])).toEqual([
      ['Both', 'MEMBER'],
      ['Invited', 'INVITE'],
      ['Domain', 'DOMAIN'],
      ['Joined', 'MEMBER'],
    ]);
    expect(res.data!.availableTeams[1]).toMatchObject({
      id: invitedTo.id,
      inviteId,
      invitedBy: 'Rita Inviter',
      subdomain: invitedTo.subdomain,
    });
    expect(res.data!.availableTeams.find((t) => t.name === 'Domain')).toMatchObject({
      id: byDomain.id,
      inviteId: null,
    });

    // The inviter sees none of that: invites addressed to someone else stay hidden.
    const theirs = await server.gql<{ availableTeams: unknown[] }>(TEAMS, {}, { token: inviter.accessToken });
    expect(theirs.data!.availableTeams).toEqual([]);
  });

  it('names the workspace a sign-in leads to when there is exactly one', async () => {
    const me = await signUpConfirmed(server, mail);
    const only = await workspace('Only');
    await member(only.id, me.user.id);
    const one = (await signIn(server, me.user.email, STRONG_PASSWORD)).data!.signIn as AuthPayload;
    expect(one.teamId).toBe(only.id);
    await member((await workspace('Second')).id, me.user.id);
    const two = (await signIn(server, me.user.email, STRONG_PASSWORD)).data!.signIn as AuthPayload;
    expect(two.teamId).toBeNull();
    expect(two.availableTeams).toHaveLength(2);
  });

  it('requires a signed-in person', async () => {
    const res = await server.gql(TEAMS);
    expect(res.errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
  });
});
