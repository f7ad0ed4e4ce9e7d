import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packDomainFields, TOO_MANY_DOMAINS } from '../../../core/src/workspaces/domains.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  addMember,
  createWorkspaceWithAdmin,
  fillWorkspace,
  gqlAs,
  type WorkspaceFixture,
} from '../../support/factories.ts';
import {
  errorOf,
  signUpConfirmed,
  STRONG_PASSWORD,
  startIdentityServer,
  stopIdentityServer,
} from '../identity/support.ts';

const SET = 'mutation($d: [String!]!) { setAllowedDomains(domains: $d) { allowedDomains } }';
const JOIN =
  'mutation($id: ID!) { joinWorkspaceByDomain(workspaceId: $id) { role workspaceAdmin effectiveRole workspace { id memberCount } } }';
const TEAMS = '{ availableTeams { id type } }';

/** Domains of `length` characters: `label.test` with the label padded out. */
const domainOf = (i: number, length: number) => `d${i}-${'x'.repeat(length - `d${i}-.test`.length)}.test`;

describe('organisation domains (002 §5)', () => {
  it('packs domains into at most five fields of 250 characters', () => {
    // 50 domains of 24 characters: ten per field (10*24 + 9 commas = 249), five fields.
    const fifty = Array.from({ length: 50 }, (_, i) => domainOf(i, 24));
    const fields = packDomainFields(fifty)!;
    expect(fields).toHaveLength(5);
    expect(fields.every((f) => f.length <= 250)).toBe(true);
    expect(fields.join(',').split(',')).toEqual(fifty);
    expect(packDomainFields([...fifty, 'one-more.test'])).toBeNull();
    expect(packDomainFields(['x'.repeat(247) + '.com'])).toBeNull();
    expect(packDomainFields([])).toEqual([]);
  });

  describe('over GraphQL', () => {
    let server: TestServer;
    let mail: TestMailServer;
    let ws: WorkspaceFixture;
    let domain: string;
    beforeAll(async () => {
      ({ server, mail } = await startIdentityServer());
      ws = await createWorkspaceWithAdmin(server, mail);
      domain = `acme-${randomBytes(3).toString('hex')}.test`;
    });
    afterAll(() => stopIdentityServer({ server, mail }));

    it('sets the allowed domains (admins), normalised and audited', async () => {
      const res = await gqlAs(
        server,
        ws.admin.accessToken,
        ws.id,
      )(SET, { d: [`@${domain.toUpperCase()}`, ` ${domain} `, 'sub.example.org'] });
      expect(res.data).toEqual({ setAllowedDomains: { allowedDomains: [domain, 'sub.example.org'] } });
      const audit = await server.fieldbook.db.owner('audit_log').where({ workspace_id: ws.id, kind: 'DOMAINS' });
      expect(audit.map((a) => a.metadata)).toEqual([{ old: [], new: [domain, 'sub.example.org'] }]);
    });

    it('refuses domains that do not fit the metadata with the exact error, changing nothing', async () => {
      const before = await server.fieldbook.db.owner('workspaces').where({ id: ws.id }).first('allowed_domains');
      const tooMany = Array.from({ length: 51 }, (_, i) => domainOf(i, 24));
      const err = errorOf(await gqlAs(server, ws.admin.accessToken, ws.id)(SET, { d: tooMany }));
      expect(err.message).toBe(TOO_MANY_DOMAINS);
      expect(err.message).toBe('Too many domains to fit in Auth0 organization metadata. Maximum 5 fields available.');
      expect(err.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'domains' });
      expect(await server.fieldbook.db.owner('workspaces').where({ id: ws.id }).first('allowed_domains')).toEqual(
        before,
      );
      // Exactly five full fields still fit.
      const fit = await gqlAs(server, ws.admin.accessToken, ws.id)(SET, { d: tooMany.slice(0, 50) });
      expect(fit.errors).toBeUndefined();
      await gqlAs(server, ws.admin.accessToken, ws.id)(SET, { d: [domain] });
    });

    it('refuses malformed and public email domains by name', async () => {
      const as = gqlAs(server, ws.admin.accessToken, ws.id);
      expect(errorOf(await as(SET, { d: ['not a domain'] }))).toMatchObject({
        message: 'not a domain is not a valid domain.',
        extensions: { field: 'domains' },
      });
      expect(errorOf(await as(SET, { d: ['gmail.com'] }))).toMatchObject({
        message: 'gmail.com is a public email domain: anyone could join with it.',
        extensions: { field: 'domains' },
      });
    });

    it('lets only those who manage domains set them', async () => {
      const manager = await addMember(server, mail, ws, 'MANAGER');
      expect(
        errorOf(await gqlAs(server, manager.accessToken, ws.id)(SET, { d: ['other.test'] })).extensions?.errorCode,
      ).toBe('FORBIDDEN');
    });

    it('offers the workspace at sign-in to people of the domain, who join as viewers', async () => {
      const person = await signUpConfirmed(server, mail, `pat-${randomBytes(2).toString('hex')}@${domain}`);
      const teams = await server.gql(TEAMS, {}, { token: person.accessToken });
      expect(teams.data).toEqual({ availableTeams: [{ id: ws.id, type: 'DOMAIN' }] });

      const joined = await server.gql(JOIN, { id: ws.id }, { token: person.accessToken });
      expect(joined.errors).toBeUndefined();
      expect(joined.data).toMatchObject({
        joinWorkspaceByDomain: {
          role: 'VIEWER',
          workspaceAdmin: false,
          effectiveRole: 'VIEWER',
          workspace: { id: ws.id },
        },
      });
      expect((await server.gql(TEAMS, {}, { token: person.accessToken })).data).toEqual({
        availableTeams: [{ id: ws.id, type: 'MEMBER' }],
      });
      const row = await server.fieldbook.db
        .owner('workspace_members')
        .where({ workspace_id: ws.id, user_id: person.user.id })
        .first();
      expect(row.joined_via).toBe('DOMAIN');
      const audit = await server.fieldbook.db
        .owner('audit_log')
        .where({ workspace_id: ws.id, kind: 'MEMBER_ADDED', subject_id: person.user.id });
      expect(audit.map((a) => a.metadata)).toEqual([expect.objectContaining({ via: 'DOMAIN', domain })]);
      // Joining twice keeps the one membership.
      expect((await server.gql(JOIN, { id: ws.id }, { token: person.accessToken })).data).toMatchObject({
        joinWorkspaceByDomain: { role: 'VIEWER' },
      });
    });

    it('refuses people of other domains and people whose email is not confirmed', async () => {
      const outsider = await signUpConfirmed(server, mail);
      const err = errorOf(await server.gql(JOIN, { id: ws.id }, { token: outsider.accessToken }));
      expect(err.extensions?.errorCode).toBe('FORBIDDEN');

      // An unconfirmed account of the domain: its email was never proven.
      const email = `unconfirmed-${randomBytes(2).toString('hex')}@${domain}`;
      await server.gql('mutation($input: SignUpInput!) { signUp(input: $input) { outcome } }', {
        input: { email, password: STRONG_PASSWORD, name: 'Una' },
      });
      await mail.waitForMail(email);
      const user = await server.fieldbook.db.owner('users').where({ email }).first();
      const tokens = await (
        server.fieldbook.services.identity as { issueSession(id: string): Promise<{ accessToken: string }> }
      ).issueSession(user.id);
      const unconfirmed = errorOf(await server.gql(JOIN, { id: ws.id }, { token: tokens.accessToken }));
      expect(unconfirmed).toMatchObject({
        message: 'Confirm your email address before joining a workspace.',
        extensions: { errorCode: 'FORBIDDEN' },
      });
      expect(
        await server.fieldbook.db
          .owner('workspace_members')
          .where({ workspace_id: ws.id })
          .whereIn('user_id', [outsider.user.id, user.id]),
      ).toEqual([]);
    });

    it('keeps a full workspace at 5000 users', async () => {
      const full = await createWorkspaceWithAdmin(server, mail);
      const fullDomain = `full-${randomBytes(3).toString('hex')}.test`;
      await gqlAs(server, full.admin.accessToken, full.id)(SET, { d: [fullDomain] });
      await fillWorkspace(server, full.id, 4999);
      const person = await signUpConfirmed(server, mail, `late@${fullDomain}`);
      const err = errorOf(await server.gql(JOIN, { id: full.id }, { token: person.accessToken }));
      expect(err).toMatchObject({
        message: 'A workspace can have at most 5000 users, and this one is full.',
        extensions: { errorCode: 'BAD_USER_INPUT', field: 'workspaceId' },
      });
    });
  });
});
