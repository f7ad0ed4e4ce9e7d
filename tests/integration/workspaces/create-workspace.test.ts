import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { CREATE_WORKSPACE, createWorkspaceWithAdmin, uniqueTeamName } from '../../support/factories.ts';
import {
  errorOf,
  signUpConfirmed,
  STRONG_PASSWORD,
  uniqueEmail,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from '../identity/support.ts';

interface Created {
  createWorkspace: {
    redirectUrl: string;
    healthCheckUrl: string;
    workspace: { id: string; name: string; subdomain: string; region: string; url: string; memberCount: number };
    membership: {
      role: string;
      workspaceAdmin: boolean;
      effectiveRole: string;
      permissions: string[];
      groupIds: string[];
    };
  };
}

describe('creating a workspace (002 §5)', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let person: AuthPayload;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    person = await signUpConfirmed(server, mail);
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const create = (input: Record<string, unknown>, token: string | null = person.accessToken) =>
    server.gql<Created>(
      CREATE_WORKSPACE,
      { input: { method: 'AUTH0', teamName: uniqueTeamName(), ...input } },
      token ? { token } : {},
    );

  it('makes the creator a WorkspaceAdmin (MANAGER with the admin flag) in region US_B by default', async () => {
    const teamName = uniqueTeamName('Acme Research');
    const res = await create({ teamName });
    expect(res.errors).toBeUndefined();
    const { workspace, membership, redirectUrl, healthCheckUrl } = res.data!.createWorkspace;
    expect(workspace).toMatchObject({
      name: teamName,
      region: 'US_B',
      memberCount: 1,
      subdomain: teamName.toLowerCase().replace(/ /g, '-'),
    });
    expect(membership).toMatchObject({
      role: 'MANAGER',
      workspaceAdmin: true,
      effectiveRole: 'WORKSPACE_ADMIN',
      groupIds: [],
    });
    expect(membership.permissions).toEqual(
      expect.arrayContaining(['auditLogs:read', 'invites:manage', 'members:manage']),
    );
    // PUBLIC_URL is http://localhost:3000: no subdomains there, so the link goes through /team-redirect.
    expect(redirectUrl).toBe(`http://localhost:3000/team-redirect/${workspace.id}/home`);
    expect(healthCheckUrl).toBe('http://localhost:3000/ping');

    const row = await server.fieldbook.db.owner('workspace_members').where({ workspace_id: workspace.id }).first();
    expect(row).toMatchObject({
      user_id: person.user.id,
      role: 'MANAGER',
      workspace_admin: true,
      joined_via: 'CREATE',
    });
    const audit = await server.fieldbook.db.owner('audit_log').where({ workspace_id: workspace.id, kind: 'WORKSPACE' });
    expect(audit.map((a) => a.metadata)).toEqual([expect.objectContaining({ action: 'created', method: 'AUTH0' })]);

    // The new workspace is addressable at once, by subdomain and by id.
    for (const key of [workspace.subdomain, workspace.id]) {
      const me = await server.gql(
        '{ myMembership { effectiveRole workspace { id } } }',
        {},
        { token: person.accessToken, workspace: key },
      );
      expect(me.data).toEqual({ myMembership: { effectiveRole: 'WORKSPACE_ADMIN', workspace: { id: workspace.id } } });
    }
  });

  it.each(['US_A', 'US_B', 'EU_A', 'AU_A'])('creates the workspace in region %s when asked', async (region) => {
    const res = await create({ region });
    expect(res.data!.createWorkspace.workspace.region).toBe(region);
  });

  it('lists the regions with their cloud region and place (002 §3)', async () => {
    const res = await server.gql('{ regions regionOptions { code cloudRegion place group } }');
    expect(res.data).toEqual({
      regions: ['US_A', 'US_B', 'EU_A', 'AU_A'],
      regionOptions: [
        { code: 'US_A', cloudRegion: 'us-east-1', place: 'North Virginia', group: 'United States' },
        { code: 'US_B', cloudRegion: 'us-east-2', place: 'Ohio', group: 'United States' },
        { code: 'EU_A', cloudRegion: 'eu-west-1', place: 'Ireland', group: 'Europe' },
        { code: 'AU_A', cloudRegion: 'ap-southeast-2', place: 'Sydney', group: 'Australia' },
      ],
    });
    expect(errorOf(await create({ region: 'MARS' })).extensions?.errorCode).toBe('BAD_USER_INPUT');
  });

  it('suggests the generated subdomain, the next free one when taken, and none for a refused name', async () => {
    const name = uniqueTeamName('Northwind Traders');
    const expected = name.toLowerCase().replace(/ /g, '-');
    const suggest = (n: string) =>
      server.gql<{ suggestSubdomain: string | null }>('query($n: String!) { suggestSubdomain(name: $n) }', { n });
    expect((await suggest(name)).data!.suggestSubdomain).toBe(expected);
    await create({ teamName: name });
    expect((await suggest(name)).data!.suggestSubdomain).toBe(`${expected}-2`);
    expect((await suggest('Admin Portal')).data!.suggestSubdomain).toBeNull();
    expect((await suggest('R&D / Ops')).data!.suggestSubdomain).toBeNull();
  });

  it('falls back to a neutral subdomain when the name yields none, and numbers a taken one', async () => {
    const reserved = await create({ teamName: 'Admin Portal' });
    expect(reserved.data!.createWorkspace.workspace.subdomain).toMatch(/^team-[0-9a-f]{8}$/);
    const name = uniqueTeamName('Twice');
    const first = await create({ teamName: name });
    const second = await create({ teamName: name });
    expect(second.data!.createWorkspace.workspace.subdomain).toBe(
      `${first.data!.createWorkspace.workspace.subdomain}-2`,
    );
  });

  it('takes a chosen subdomain, and refuses a taken, reserved, profane or malformed one, creating nothing', async () => {
    const chosen = `pick-${Date.now().toString(36)}`;
    const ok = await create({ subdomain: chosen.toUpperCase() });
    expect(ok.data!.createWorkspace.workspace.subdomain).toBe(chosen);
    const before = await server.fieldbook.db.owner('workspaces').count({ n: '*' });
    const cases: Array<[string, string]> = [
      [chosen, 'That subdomain is taken. Please choose another.'],
      ['admin-area', 'That subdomain is reserved. Please choose another.'],
      ['holy-shit-ltd', 'That subdomain contains a word that is not allowed. Please choose another.'],
      ['abc', 'A subdomain needs at least 4 characters.'],
      ['-acme', 'A subdomain is 3 to 50 lowercase letters, digits and hyphens, and cannot start or end with a hyphen.'],
      [
        'acme_co',
        'A subdomain is 3 to 50 lowercase letters, digits and hyphens, and cannot start or end with a hyphen.',
      ],
    ];
    for (const [subdomain, message] of cases) {
      const err = errorOf(await create({ subdomain }));
      expect(err).toMatchObject({ message, extensions: { errorCode: 'BAD_USER_INPUT', field: 'subdomain' } });
    }
    expect(await server.fieldbook.db.owner('workspaces').count({ n: '*' })).toEqual(before);
  });

  it('checks the request of each method: EMAIL needs the email and password, ONE_TIME_CODE the email', async () => {
    const email = uniqueEmail('creator');
    const creator = await signUpConfirmed(server, mail, email);
    const as = (input: Record<string, unknown>) => create(input, creator.accessToken);

    expect((await as({ method: 'EMAIL', email, password: STRONG_PASSWORD })).errors).toBeUndefined();
    expect((await as({ method: 'ONE_TIME_CODE', email: email.toUpperCase() })).errors).toBeUndefined();
    expect((await as({ method: 'OIDC' })).errors).toBeUndefined();

    expect(errorOf(await as({ method: 'EMAIL', email })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'password',
    });
    expect(errorOf(await as({ method: 'EMAIL', password: STRONG_PASSWORD })).extensions).toMatchObject({
      field: 'email',
    });
    expect(errorOf(await as({ method: 'EMAIL', email, password: 'Wrong-Password-99' }))).toMatchObject({
      message: 'That password is not correct.',
      extensions: { field: 'password' },
    });
    expect(errorOf(await as({ method: 'ONE_TIME_CODE' })).extensions).toMatchObject({ field: 'email' });
    expect(errorOf(await as({ method: 'ONE_TIME_CODE', email: 'someone-else@example.com' })).extensions).toMatchObject({
      field: 'email',
    });
    expect(errorOf(await as({ method: 'ONE_TIME_CODE', email: 'not an email' })).extensions).toMatchObject({
      field: 'email',
    });
  });

  it('keeps the optional details: name, job role and marketing choice on the person, org size and promo on the workspace', async () => {
    const creator = await signUpConfirmed(server, mail);
    const installTemplateId = '0b5b8d3e-8d0e-4f43-9f3a-3c9c7a3c6a01';
    const res = await create(
      {
        name: 'Grace Hopper',
        jobRole: 'PRODUCT_MANAGEMENT',
        marketingCommsEnabled: true,
        orgSize: '26-200',
        promo: 'LAUNCH',
        installTemplateId,
      },
      creator.accessToken,
    );
    expect(res.errors).toBeUndefined();
    const ws = await server.fieldbook.db
      .owner('workspaces')
      .where({ id: res.data!.createWorkspace.workspace.id })
      .first();
    expect(ws).toMatchObject({
      org_size: '26-200',
      promo: 'LAUNCH',
      install_template_id: installTemplateId,
      created_by: creator.user.id,
    });
    const user = await server.fieldbook.db.owner('users').where({ id: creator.user.id }).first();
    expect(user.name).toBe('Grace Hopper');
    expect(user.preferences).toMatchObject({ jobRole: 'product management', marketingCommsEnabled: true });
  });

  it('refuses bad details by field, changing nothing', async () => {
    const before = await server.fieldbook.db.owner('workspaces').count({ n: '*' });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ teamName: '' }, 'teamName', 'Enter a name for the workspace.'],
      [{ teamName: 'x'.repeat(201) }, 'teamName', 'A workspace name can be at most 200 characters long.'],
      [
        { orgSize: '7' },
        'orgSize',
        'The organisation size is one of 1-25, 26-200, 201-500, 501-1000, 1001-5000, 5000+.',
      ],
      [
        { jobRole: 'astronaut' },
        'jobRole',
        'The job role is one of consulting, customer success, design, engineering, finance, legal, management, marketing, operations, other, product management, research, sales, student, support.',
      ],
      [{ installTemplateId: 'nope' }, 'installTemplateId', 'This id is not valid.'],
      [{ name: 'x'.repeat(101) }, 'name', 'A name can be at most 100 characters long.'],
    ];
    for (const [input, field, message] of cases) {
      const err = errorOf(await create(input));
      expect(err.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field });
      expect(err.message).toContain(message);
    }
    expect(await server.fieldbook.db.owner('workspaces').count({ n: '*' })).toEqual(before);
  });

  it('needs a signed-in person', async () => {
    expect(errorOf(await create({}, null)).extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('answers an unknown subdomain with NOT_FOUND', async () => {
    const res = await server.gql('{ currentWorkspace { id } }', {}, { workspace: 'no-such-workspace-here' });
    expect(res.status).toBe(404);
    expect(errorOf(res).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('shows the current workspace to its members only', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const mine = await server.gql(
      '{ currentWorkspace { id name memberCount } }',
      {},
      { token: ws.admin.accessToken, workspace: ws.subdomain },
    );
    expect(mine.data).toEqual({ currentWorkspace: { id: ws.id, name: ws.name, memberCount: 1 } });
    const stranger = await server.gql(
      '{ currentWorkspace { id } myMembership { role } }',
      {},
      { token: person.accessToken, workspace: ws.subdomain },
    );
    expect(stranger.data).toEqual({ currentWorkspace: null, myMembership: null });
  });

  it('updates the name and branding (team manage), expanding a 3-digit colour', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const UPDATE =
      'mutation($input: UpdateWorkspaceInput!) { updateWorkspace(input: $input) { name primaryColor logoUrl publicLinksDisabled } }';
    const res = await server.gql(
      UPDATE,
      { input: { name: 'Renamed', primaryColor: '#A1b', publicLinksDisabled: true } },
      { token: ws.admin.accessToken, workspace: ws.id },
    );
    expect(res.data).toEqual({
      updateWorkspace: { name: 'Renamed', primaryColor: '#aa11bb', logoUrl: null, publicLinksDisabled: true },
    });
    const bad = errorOf(
      await server.gql(
        UPDATE,
        { input: { logoUrl: 'http://insecure.example/logo.png' } },
        { token: ws.admin.accessToken, workspace: ws.id },
      ),
    );
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'logoUrl' });
  });
});
