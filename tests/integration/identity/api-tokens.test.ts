import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiToken } from '../../../core/src/identity/api-tokens.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  STRONG_PASSWORD,
  errorOf,
  signUpConfirmed,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from './support.ts';

const WS = '8d0f3a52-6c1e-4b8e-9a57-1f0c2d3e4f50';
const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

describe('API token format (001 §3.5)', () => {
  it('reads a token with the api prefix', () => {
    expect(parseApiToken(`api.${WS}.${SECRET}`)).toEqual({ workspaceId: WS, secret: SECRET });
  });
  it('reads a token without the prefix', () => {
    expect(parseApiToken(`${WS}.${SECRET}`)).toEqual({ workspaceId: WS, secret: SECRET });
  });
  it.each([
    ['a signed access token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
    ['a team id that is not a UUID', `api.not-a-uuid.${SECRET}`],
    ['a missing secret', `api.${WS}.`],
    ['a secret with dots', `api.${WS}.${SECRET}.more`],
    ['another prefix', `key.${WS}.${SECRET}`],
  ])('does not take %s for an API token', (_what, token) => {
    expect(parseApiToken(token)).toBeNull();
  });
});

describe('API tokens, and sign-in addressed to a workspace', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let owner: AuthPayload;
  let workspaceId: string;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
    owner = await signUpConfirmed(server, mail);
    const [ws] = await server.fieldbook.db
      .owner('workspaces')
      .insert({ name: 'Token Test', subdomain: `tokens-${randomBytes(3).toString('hex')}` })
      .returning('id');
    workspaceId = (ws as { id: string }).id;
    await server.fieldbook.db
      .owner('workspace_members')
      .insert({ workspace_id: workspaceId, user_id: owner.user.id, role: 'MANAGER' });
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const CREATE =
    'mutation($n: String!) { createApiToken(name: $n) { token apiToken { id name lastFour lastUsedAt } } }';
  const create = (name: string) =>
    server.gql<{ createApiToken: { token: string; apiToken: { id: string; name: string; lastFour: string } } }>(
      CREATE,
      { n: name },
      { token: owner.accessToken, workspace: workspaceId },
    );

  it('creates a token shown once as api.{teamId}.{secret}, stores only its hash, and audits it', async () => {
    const res = await create('CI export');
    expect(res.errors).toBeUndefined();
    const { token, apiToken } = res.data!.createApiToken;
    expect(token).toMatch(new RegExp(`^api\\.${workspaceId}\\.[A-Za-z0-9_-]{43}$`));
    expect(apiToken.lastFour).toBe(token.slice(-4));
    const row = await server.fieldbook.db.owner('api_tokens').where({ id: apiToken.id }).first();
    expect(row.secret_hash).toHaveLength(64);
    expect(token).not.toContain(row.secret_hash);
    const audit = await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: workspaceId, kind: 'API_TOKEN', subject_id: apiToken.id });
    expect(audit.map((a) => a.metadata)).toEqual([{ action: 'created', name: 'CI export' }]);
  });

  it('authenticates with the token, with or without the api prefix, bound to its workspace', async () => {
    const { token } = (await create('reader')).data!.createApiToken;
    const me = await server.gql<{ me: { id: string } }>('{ me { id } }', {}, { token });
    expect(me.data!.me.id).toBe(owner.user.id);
    const bare = await server.gql<{ me: { id: string } }>('{ me { id } }', {}, { token: token.slice('api.'.length) });
    expect(bare.data!.me.id).toBe(owner.user.id);
    const listed = await server.gql<{ apiTokens: Array<{ name: string; lastUsedAt: string | null }> }>(
      '{ apiTokens { name lastUsedAt } }',
      {},
      { token },
    );
    expect(listed.data!.apiTokens.find((t) => t.name === 'reader')!.lastUsedAt).not.toBeNull();
  });

  it('cannot change its person’s password, even with the right current password', async () => {
    const { token } = (await create('no-password-changes')).data!.createApiToken;
    const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
    const refused = errorOf(await server.gql(CHANGE, { c: STRONG_PASSWORD, n: 'Brand-New-Pass-99' }, { token }));
    expect(refused).toMatchObject({
      message: 'An API token cannot change a password. Sign in to change it.',
      extensions: { errorCode: 'FORBIDDEN' },
    });
    const login = await server.gql(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { accessToken } }',
      { e: owner.user.email, p: STRONG_PASSWORD },
    );
    expect(login.errors).toBeUndefined();
  });

  it('revokes a token: it stops working at once and the revocation is audited', async () => {
    const { token, apiToken } = (await create('short-lived')).data!.createApiToken;
    const revoked = await server.gql(
      'mutation($id: ID!) { revokeApiToken(id: $id) }',
      { id: apiToken.id },
      { token: owner.accessToken, workspace: workspaceId },
    );
    expect(revoked.data).toEqual({ revokeApiToken: true });
    const res = await server.gql('{ me { id } }', {}, { token });
    expect(res.status).toBe(401);
    expect(errorOf(res)).toMatchObject({
      message: 'This API token is not valid or was revoked.',
      extensions: { errorCode: 'UNAUTHENTICATED' },
    });
    const audit = await server.fieldbook.db.owner('audit_log').where({ subject_id: apiToken.id }).orderBy('created_at');
    expect(audit.map((a) => a.metadata.action)).toEqual(['created', 'revoked']);
    const again = errorOf(
      await server.gql(
        'mutation($id: ID!) { revokeApiToken(id: $id) }',
        { id: apiToken.id },
        { token: owner.accessToken, workspace: workspaceId },
      ),
    );
    expect(again.extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('keeps at most 50 open tokens per person in a workspace, says so, and lets a revoked one make room', async () => {
    const limit = await server.gql<{ apiTokenLimit: number }>(
      '{ apiTokenLimit }',
      {},
      { token: owner.accessToken, workspace: workspaceId },
    );
    expect(limit.data).toEqual({ apiTokenLimit: 50 });
    const db = server.fieldbook.db.owner;
    const open = async () =>
      Number(
        (
          (await db('api_tokens')
            .where({ workspace_id: workspaceId, user_id: owner.user.id })
            .whereNull('revoked_at')
            .count('* as n')
            .first()) as { n: number }
        ).n,
      );
    // Filled straight to one short of the cap (creating each through the API adds nothing here).
    const filler = Array.from({ length: 49 - (await open()) }, (_, i) => ({
      workspace_id: workspaceId,
      user_id: owner.user.id,
      name: `filler ${i}`,
      secret_hash: randomBytes(32).toString('hex'),
      last_four: 'abcd',
    }));
    if (filler.length) await db('api_tokens').insert(filler);
    expect((await create('the fiftieth')).errors).toBeUndefined();
    expect(await open()).toBe(50);

    const refused = await create('one too many');
    expect(errorOf(refused)).toMatchObject({
      message: 'You can have at most 50 API tokens in this workspace. Revoke one you no longer use to create another.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'name' },
    });
    expect(await open()).toBe(50);

    const [oldest] = (await db('api_tokens')
      .where({ workspace_id: workspaceId, user_id: owner.user.id })
      .whereNull('revoked_at')
      .orderBy('created_at')
      .limit(1)
      .select('id')) as Array<{ id: string }>;
    await server.gql(
      'mutation($id: ID!) { revokeApiToken(id: $id) }',
      { id: oldest!.id },
      { token: owner.accessToken, workspace: workspaceId },
    );
    expect((await create('one too many')).errors).toBeUndefined();
    // Back under the cap for the tests after this one.
    await db('api_tokens')
      .where({ workspace_id: workspaceId, user_id: owner.user.id })
      .where('name', 'like', 'filler %')
      .update({ revoked_at: db.fn.now() });
  });

  it('refuses a token with a wrong secret, and one used for another workspace', async () => {
    const { token } = (await create('bound')).data!.createApiToken;
    const wrong = await server.gql('{ me { id } }', {}, { token: `${token.slice(0, -4)}AAAA` });
    expect(errorOf(wrong).extensions?.errorCode).toBe('UNAUTHENTICATED');
    const [other] = await server.fieldbook.db
      .owner('workspaces')
      .insert({ name: 'Other', subdomain: `other-${randomBytes(3).toString('hex')}` })
      .returning('id');
    const elsewhere = await server.gql('{ me { id } }', {}, { token, workspace: (other as { id: string }).id });
    expect(errorOf(elsewhere).extensions?.errorCode).toBe('FORBIDDEN');
  });

  it('checks the name and needs a workspace and a membership, changing nothing otherwise', async () => {
    const before = await server.fieldbook.db.owner('api_tokens').count({ n: '*' });
    const noName = errorOf(await server.gql(CREATE, { n: ' ' }, { token: owner.accessToken, workspace: workspaceId }));
    expect(noName.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'name' });
    const noWorkspace = errorOf(await server.gql(CREATE, { n: 'x' }, { token: owner.accessToken }));
    expect(noWorkspace.extensions?.errorCode).toBe('BAD_USER_INPUT');
    const stranger = await signUpConfirmed(server, mail);
    const notMember = errorOf(
      await server.gql(CREATE, { n: 'x' }, { token: stranger.accessToken, workspace: workspaceId }),
    );
    expect(notMember.extensions?.errorCode).toBe('FORBIDDEN');
    expect(await server.fieldbook.db.owner('api_tokens').count({ n: '*' })).toEqual(before);
  });

  it('skips the confirmation email for a confirmed member signing in to their workspace (EMAIL_SKIPPED)', async () => {
    const SEND = `mutation($input: SendConfirmationEmailInput!) { sendConfirmationEmail(input: $input) { success outcome teamId } }`;
    const skipped = await server.gql(
      SEND,
      { input: { email: owner.user.email, recaptchaToken: 't' } },
      { workspace: workspaceId },
    );
    expect(skipped.data).toEqual({
      sendConfirmationEmail: { success: true, outcome: 'EMAIL_SKIPPED', teamId: workspaceId },
    });
    const forced = await server.gql(
      SEND,
      { input: { email: owner.user.email, recaptchaToken: 't', skipFastLoginRedirect: true } },
      { workspace: workspaceId },
    );
    expect(forced.data).toEqual({ sendConfirmationEmail: { success: true, outcome: 'EMAIL_SENT', teamId: null } });
    await mail.waitForMail(owner.user.email, (m) => m.subject.startsWith('Confirm'));
  });

  it('shows the workspace branding in the team environment', async () => {
    await server.fieldbook.db.owner('workspaces').where({ id: workspaceId }).update({ primary_color: '#112233' });
    const env = await server.gql(
      '{ teamEnvironment { teamId name primaryColor passwordLogin ssoLogin } }',
      {},
      { workspace: workspaceId },
    );
    expect(env.data).toEqual({
      teamEnvironment: {
        teamId: workspaceId,
        name: 'Token Test',
        primaryColor: '#112233',
        passwordLogin: true,
        ssoLogin: false,
      },
    });
  });
});
