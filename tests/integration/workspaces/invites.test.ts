import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  ACCEPT_INVITE,
  addMember,
  createWorkspaceWithAdmin,
  fillWorkspace,
  gqlAs,
  INVITE_MEMBERS,
  inviteTokenFromMail,
  type WorkspaceFixture,
} from '../../support/factories.ts';
import { errorOf, signUpConfirmed, uniqueEmail, startIdentityServer, stopIdentityServer } from '../identity/support.ts';

const PREVIEW = `query($token: String!) {
  inviteByToken(token: $token) { workspaceId workspaceName workspaceSubdomain email invitedBy role workspaceAdmin expired accepted }
}`;
const TEAMS = '{ availableTeams { id type inviteId invitedBy } }';

describe('invites', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let ws: WorkspaceFixture;
  let asAdmin: ReturnType<typeof gqlAs>;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    ws = await createWorkspaceWithAdmin(server, mail);
    await server.gql('mutation { updateProfile(name: "Ines Inviter") { name } }', {}, { token: ws.admin.accessToken });
    asAdmin = gqlAs(server, ws.admin.accessToken, ws.id);
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('mails an accept link over SMTP; the invitee sees it at sign-in, previews it and accepts it', async () => {
    const invitee = await signUpConfirmed(server, mail, uniqueEmail('invitee'));
    const res = await asAdmin<{
      inviteMembers: Array<{ id: string; email: string; role: string; invitedBy: { name: string } }>;
    }>(INVITE_MEMBERS, {
      input: {
        emails: [invitee.user.email.toUpperCase()],
        role: 'CONTRIBUTOR',
        message: 'Welcome aboard!\nSee you Monday.',
      },
    });
    expect(res.errors).toBeUndefined();
    const [invite] = res.data!.inviteMembers;
    expect(invite).toMatchObject({
      email: invitee.user.email,
      role: 'CONTRIBUTOR',
      invitedBy: { name: 'Ines Inviter' },
    });

    const message = await mail.waitForMail(invitee.user.email, (m) => m.subject.includes('invited you'));
    expect(message.subject).toBe(`Ines Inviter invited you to ${ws.name} on Fieldbook`);
    expect(message.text).toContain('as a contributor');
    expect(message.text).toContain('> Welcome aboard!\n> See you Monday.');
    const link = mail.linkIn(message, 'http://localhost:3000/auth/accept-invite?token=');
    const token = link.searchParams.get('token')!;

    const teams = await server.gql<{
      availableTeams: Array<{ id: string; type: string; inviteId: string; invitedBy: string }>;
    }>(TEAMS, {}, { token: invitee.accessToken });
    expect(teams.data!.availableTeams).toEqual([
      { id: ws.id, type: 'INVITE', inviteId: invite!.id, invitedBy: 'Ines Inviter' },
    ]);

    const preview = await server.gql(PREVIEW, { token });
    expect(preview.data).toEqual({
      inviteByToken: {
        workspaceId: ws.id,
        workspaceName: ws.name,
        workspaceSubdomain: ws.subdomain,
        email: invitee.user.email,
        invitedBy: 'Ines Inviter',
        role: 'CONTRIBUTOR',
        workspaceAdmin: false,
        expired: false,
        accepted: false,
      },
    });

    const accepted = await server.gql(ACCEPT_INVITE, { token }, { token: invitee.accessToken });
    expect(accepted.data).toEqual({
      acceptInvite: {
        role: 'CONTRIBUTOR',
        workspaceAdmin: false,
        effectiveRole: 'CONTRIBUTOR',
        workspace: { id: ws.id, name: ws.name },
      },
    });
    const after = await server.gql<{ availableTeams: Array<{ type: string }> }>(
      TEAMS,
      {},
      { token: invitee.accessToken },
    );
    expect(after.data!.availableTeams.map((t) => t.type)).toEqual(['MEMBER']);
    expect((await server.gql(PREVIEW, { token })).data).toMatchObject({ inviteByToken: { accepted: true } });

    // Accepting again changes nothing; the membership stands.
    const again = await server.gql(ACCEPT_INVITE, { token }, { token: invitee.accessToken });
    expect(again.data).toMatchObject({ acceptInvite: { role: 'CONTRIBUTOR' } });
    const audit = await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: ws.id })
      .whereIn('kind', ['INVITE', 'MEMBER_ADDED'])
      .orderBy('created_at');
    expect(
      audit
        .filter((a) => a.subject_id === invite!.id || a.subject_id === invitee.user.id)
        .map((a) => [a.kind, a.metadata.action ?? a.metadata.via]),
    ).toEqual([
      ['INVITE', 'sent'],
      ['MEMBER_ADDED', 'INVITE'],
    ]);
  });

  it('lets only the person the invite was sent to accept it', async () => {
    const email = uniqueEmail('intended');
    await asAdmin(INVITE_MEMBERS, { input: { emails: [email], role: 'VIEWER' } });
    const token = await inviteTokenFromMail(mail, email);
    const other = await signUpConfirmed(server, mail);
    const err = errorOf(await server.gql(ACCEPT_INVITE, { token }, { token: other.accessToken }));
    expect(err).toMatchObject({
      message: `This invite was sent to ${email}. Sign in with that email address to accept it.`,
      extensions: { errorCode: 'FORBIDDEN' },
    });
    expect(errorOf(await server.gql(ACCEPT_INVITE, { token })).extensions?.errorCode).toBe('UNAUTHENTICATED');
    const members = await server.fieldbook.db
      .owner('workspace_members')
      .where({ workspace_id: ws.id, user_id: other.user.id });
    expect(members).toEqual([]);
  });

  it('answers an unknown, tampered or revoked link with null, and refuses to accept it', async () => {
    const person = await signUpConfirmed(server, mail);
    const res = await asAdmin<{ inviteMembers: Array<{ id: string }> }>(INVITE_MEMBERS, {
      input: { emails: [person.user.email], role: 'VIEWER' },
    });
    const token = await inviteTokenFromMail(mail, person.user.email);
    const tampered = `${token.slice(0, -4)}AAAA`;
    expect((await server.gql(PREVIEW, { token: tampered })).data).toEqual({ inviteByToken: null });
    expect((await server.gql(PREVIEW, { token: 'garbage' })).data).toEqual({ inviteByToken: null });

    const revoked = await asAdmin('mutation($id: ID!) { revokeInvite(id: $id) }', {
      id: res.data!.inviteMembers[0]!.id,
    });
    expect(revoked.data).toEqual({ revokeInvite: true });
    expect((await server.gql(PREVIEW, { token })).data).toEqual({ inviteByToken: null });
    expect(
      errorOf(await server.gql(ACCEPT_INVITE, { token }, { token: person.accessToken })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    const audit = await server.fieldbook.db
      .owner('audit_log')
      .where({ subject_id: res.data!.inviteMembers[0]!.id })
      .orderBy('created_at');
    expect(audit.map((a) => a.metadata.action)).toEqual(['sent', 'revoked']);
  });

  it('refuses an expired invite', async () => {
    const person = await signUpConfirmed(server, mail);
    const res = await asAdmin<{ inviteMembers: Array<{ id: string }> }>(INVITE_MEMBERS, {
      input: { emails: [person.user.email], role: 'VIEWER' },
    });
    const token = await inviteTokenFromMail(mail, person.user.email);
    await server.fieldbook.db
      .owner('invites')
      .where({ id: res.data!.inviteMembers[0]!.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await server.gql(PREVIEW, { token })).data).toMatchObject({ inviteByToken: { expired: true } });
    const err = errorOf(await server.gql(ACCEPT_INVITE, { token }, { token: person.accessToken }));
    expect(err).toMatchObject({
      message: 'This invite has expired. Ask for a new one.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'token' },
    });
  });

  it('replaces an open invite to the same address: only the newest link works', async () => {
    const person = await signUpConfirmed(server, mail);
    await asAdmin(INVITE_MEMBERS, { input: { emails: [person.user.email], role: 'VIEWER' } });
    const first = await inviteTokenFromMail(mail, person.user.email);
    await asAdmin(INVITE_MEMBERS, { input: { emails: [person.user.email], role: 'MANAGER' } });
    const second = await inviteTokenFromMail(mail, person.user.email);
    expect(
      errorOf(await server.gql(ACCEPT_INVITE, { token: first }, { token: person.accessToken })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect((await server.gql(ACCEPT_INVITE, { token: second }, { token: person.accessToken })).data).toMatchObject({
      acceptInvite: { role: 'MANAGER' },
    });
  });

  it('lets a contributor invite the same or a lower role only; a manager of invites may offer any', async () => {
    const contributor = await addMember(server, mail, ws, 'CONTRIBUTOR');
    const asContributor = gqlAs(server, contributor.accessToken, ws.id);
    for (const role of ['VIEWER', 'CONTRIBUTOR']) {
      const res = await asContributor(INVITE_MEMBERS, { input: { emails: [uniqueEmail(role)], role } });
      expect(res.errors, role).toBeUndefined();
    }
    const before = await server.fieldbook.db.owner('invites').where({ workspace_id: ws.id }).count({ n: '*' });
    for (const input of [{ role: 'MANAGER' }, { role: 'VIEWER', workspaceAdmin: true }]) {
      const err = errorOf(await asContributor(INVITE_MEMBERS, { input: { emails: [uniqueEmail()], ...input } }));
      expect(err).toMatchObject({
        message: 'You can invite people with your own role or a lower one only.',
        extensions: { errorCode: 'FORBIDDEN' },
      });
    }
    expect(await server.fieldbook.db.owner('invites').where({ workspace_id: ws.id }).count({ n: '*' })).toEqual(before);
    expect(
      (await asAdmin(INVITE_MEMBERS, { input: { emails: [uniqueEmail()], role: 'MANAGER', workspaceAdmin: true } }))
        .errors,
    ).toBeUndefined();

    // A contributor revokes their own invites, not the admin's.
    const adminInvite = await asAdmin<{ inviteMembers: Array<{ id: string }> }>(INVITE_MEMBERS, {
      input: { emails: [uniqueEmail()], role: 'VIEWER' },
    });
    const err = errorOf(
      await asContributor('mutation($id: ID!) { revokeInvite(id: $id) }', {
        id: adminInvite.data!.inviteMembers[0]!.id,
      }),
    );
    expect(err.extensions?.errorCode).toBe('FORBIDDEN');
  });

  it('checks the message (at most 500 characters), the addresses and existing members, changing nothing', async () => {
    const before = await server.fieldbook.db.owner('invites').count({ n: '*' });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { emails: [uniqueEmail()], message: 'x'.repeat(501) },
        'message',
        'An invite message can be at most 500 characters long.',
      ],
      [{ emails: [uniqueEmail(), 'not-an-email'] }, 'emails', 'not-an-email is not a valid email address.'],
      [{ emails: [] }, 'emails', 'List at least one email address to invite.'],
      [
        { emails: Array.from({ length: 101 }, () => uniqueEmail()) },
        'emails',
        'Invite at most 100 email addresses at once.',
      ],
      [
        { emails: [uniqueEmail(), ws.admin.user.email] },
        'emails',
        `${ws.admin.user.email} is already a member of this workspace.`,
      ],
    ];
    for (const [input, field, message] of cases) {
      const err = errorOf(await asAdmin(INVITE_MEMBERS, { input: { role: 'VIEWER', ...input } }));
      expect(err.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field });
      expect(err.message).toContain(message);
    }
    expect(
      (await asAdmin(INVITE_MEMBERS, { input: { emails: [uniqueEmail()], role: 'VIEWER', message: 'y'.repeat(500) } }))
        .errors,
    ).toBeUndefined();
    expect(await server.fieldbook.db.owner('invites').count({ n: '*' })).toEqual([
      { n: Number((before[0] as { n: number }).n) + 1 },
    ]);
  });

  it('lists open invites to those who may send them, not to viewers', async () => {
    const viewer = await addMember(server, mail, ws, 'VIEWER');
    const listed = await asAdmin<{ invites: Array<{ email: string; acceptedAt: string | null }> }>(
      '{ invites { email acceptedAt } }',
    );
    expect(listed.data!.invites.length).toBeGreaterThan(0);
    expect(listed.data!.invites.every((i) => i.acceptedAt === null)).toBe(true);
    expect(errorOf(await gqlAs(server, viewer.accessToken, ws.id)('{ invites { id } }')).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
  });

  it('counts members and open invites towards the 5000 users of a workspace', async () => {
    const full = await createWorkspaceWithAdmin(server, mail);
    await fillWorkspace(server, full.id, 4998);
    const asFullAdmin = gqlAs(server, full.admin.accessToken, full.id);
    const first = uniqueEmail('last-seat');
    expect((await asFullAdmin(INVITE_MEMBERS, { input: { emails: [first], role: 'VIEWER' } })).errors).toBeUndefined();
    const err = errorOf(
      await asFullAdmin(INVITE_MEMBERS, { input: { emails: [uniqueEmail(), uniqueEmail()], role: 'VIEWER' } }),
    );
    expect(err).toMatchObject({
      message:
        'A workspace can have at most 5000 users, and this one is full. Pending invites count towards the limit.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'emails' },
    });

    // The last seat is taken by someone joining another way: accepting the invite now fails.
    await fillWorkspace(server, full.id, 1);
    const person = await signUpConfirmed(server, mail, first);
    const token = await inviteTokenFromMail(mail, first);
    const refused = errorOf(await server.gql(ACCEPT_INVITE, { token }, { token: person.accessToken }));
    expect(refused).toMatchObject({
      message: 'A workspace can have at most 5000 users, and this one is full.',
      extensions: { field: 'token' },
    });
    expect(
      await server.fieldbook.db.owner('workspace_members').where({ workspace_id: full.id }).count({ n: '*' }),
    ).toEqual([{ n: 5000 }]);
  });
});
