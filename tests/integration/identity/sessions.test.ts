import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  AUTH_FIELDS,
  STRONG_PASSWORD,
  errorOf,
  signIn,
  signUpConfirmed,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from './support.ts';

const REFRESH = `mutation($t: String) { refreshSession(refreshToken: $t) { ${AUTH_FIELDS} } }`;

/** POSTs GraphQL with raw headers, to see and send cookies. */
async function post(
  server: TestServer,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    res,
    body: (await res.json()) as {
      data?: Record<string, AuthPayload | boolean>;
      errors?: Array<{ message: string; extensions: { errorCode: string } }>;
    },
  };
}

describe('sessions', () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('issues a signed access token naming the person and the session', async () => {
    const session = await signUpConfirmed(server, mail);
    const [, payload] = session.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: session.user.id, email: session.user.email });
    expect(claims.exp).toBe(Math.floor(new Date(session.expiresAt).getTime() / 1000));
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    const row = await server.fieldbook.db
      .owner('sessions')
      .where({ id: claims.sid as string })
      .first();
    expect(row.user_id).toBe(session.user.id);
    expect(row.refresh_token_hash).toHaveLength(64);
    expect(row.refresh_token_hash).not.toContain(session.refreshToken);
  });

  it('rotates the refresh token: the new one works and the old one is refused', async () => {
    const session = await signUpConfirmed(server, mail);
    const rotated = await server.gql<{ refreshSession: AuthPayload }>(REFRESH, { t: session.refreshToken });
    expect(rotated.errors).toBeUndefined();
    const next = rotated.data!.refreshSession;
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect(next.user.id).toBe(session.user.id);
    expect((await server.gql('{ me { id } }', {}, { token: next.accessToken })).data).toEqual({
      me: { id: session.user.id },
    });

    const third = await server.gql<{ refreshSession: AuthPayload }>(REFRESH, { t: next.refreshToken });
    expect(third.errors).toBeUndefined();
    expect(
      (await server.gql('{ me { id } }', {}, { token: third.data!.refreshSession.accessToken })).errors,
    ).toBeUndefined();
  });

  it('ends the whole session when a rotated-out refresh token comes back (reuse means it was copied)', async () => {
    const session = await signUpConfirmed(server, mail);
    const next = (await server.gql<{ refreshSession: AuthPayload }>(REFRESH, { t: session.refreshToken })).data!
      .refreshSession;
    const other = (await signIn(server, session.user.email, STRONG_PASSWORD)).data!.signIn;

    const replay = errorOf(await server.gql(REFRESH, { t: session.refreshToken }));
    expect(replay).toMatchObject({
      message: 'Your session has expired. Please sign in again.',
      extensions: { errorCode: 'UNAUTHENTICATED' },
    });
    // The current refresh token and access token of that session stop working too.
    expect(errorOf(await server.gql(REFRESH, { t: next.refreshToken })).extensions?.errorCode).toBe('UNAUTHENTICATED');
    expect(errorOf(await server.gql('{ me { id } }', {}, { token: next.accessToken })).extensions?.errorCode).toBe(
      'UNAUTHENTICATED',
    );
    // Another session of the same person is not touched.
    expect((await server.gql('{ me { id } }', {}, { token: other.accessToken })).data).toEqual({
      me: { id: session.user.id },
    });
  });

  it('hands the web app its refresh token as an httpOnly SameSite=Lax cookie on /api, and refreshes from it', async () => {
    const session = await signUpConfirmed(server, mail);
    const signIn = await post(
      server,
      `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { ${AUTH_FIELDS} } }`,
      {
        e: session.user.email,
        p: STRONG_PASSWORD,
      },
    );
    const cookie = signIn.res.headers.getSetCookie().find((c) => c.startsWith('fb_refresh='))!;
    expect(cookie).toMatch(/; path=\/api/i);
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    const value = cookie.split(';')[0]!.slice('fb_refresh='.length);
    expect(value).toBe((signIn.body.data!.signIn as AuthPayload).refreshToken);

    const refreshed = await post(server, REFRESH, {}, { cookie: `fb_refresh=${value}` });
    expect(refreshed.body.errors).toBeUndefined();
    const rotatedCookie = refreshed.res.headers.getSetCookie().find((c) => c.startsWith('fb_refresh='))!;
    expect(rotatedCookie.split(';')[0]).toBe(
      `fb_refresh=${(refreshed.body.data!.refreshSession as AuthPayload).refreshToken}`,
    );

    const none = await post(server, REFRESH, {});
    expect(none.body.errors![0]!.extensions.errorCode).toBe('UNAUTHENTICATED');
  });

  it('signs out: the same access token is refused at once, its refresh token too, and the cookie is cleared', async () => {
    const session = await signUpConfirmed(server, mail);
    const out = await post(server, 'mutation { signOut }', {}, { authorization: `Bearer ${session.accessToken}` });
    expect(out.body.data).toEqual({ signOut: true });
    expect(out.res.headers.getSetCookie().find((c) => c.startsWith('fb_refresh='))).toMatch(
      /^fb_refresh=;.*expires=Thu, 01 Jan 1970/i,
    );

    const after = await post(server, '{ me { id } }', {}, { authorization: `Bearer ${session.accessToken}` });
    expect(after.res.status).toBe(401);
    expect(after.body.errors![0]!.extensions.errorCode).toBe('UNAUTHENTICATED');
    expect(errorOf(await server.gql(REFRESH, { t: session.refreshToken })).extensions?.errorCode).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('refuses a tampered access token and a malformed Authorization header', async () => {
    const session = await signUpConfirmed(server, mail);
    const [h, p, s] = session.accessToken.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: crypto.randomUUID() })).toString('base64url')}.${s}`;
    const res = await post(server, '{ me { id } }', {}, { authorization: `Bearer ${forged}` });
    expect(res.res.status).toBe(401);
    expect(res.body.errors![0]!.message).toBe('Your sign-in token is not valid. Please sign in again.');
    const garbage = await post(server, '{ me { id } }', {}, { authorization: 'Bearer one two' });
    expect(garbage.res.status).toBe(401);
  });

  it('rejects a request that sends both a bearer token and a share token', async () => {
    const session = await signUpConfirmed(server, mail);
    const res = await post(
      server,
      '{ me { id } }',
      {},
      { authorization: `Bearer ${session.accessToken}`, 'x-share-token': 'abcdef123456' },
    );
    expect(res.res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({
      message: 'Send either a bearer token or a public share token, not both.',
      extensions: { errorCode: 'BAD_USER_INPUT' },
    });
    const malformed = await post(server, '{ me { id } }', {}, { 'x-share-token': 'too-short' });
    expect(malformed.res.status).toBe(400);
    expect(malformed.body.errors![0]).toMatchObject({
      message: 'A share token is exactly 12 letters or digits.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'shareToken' },
    });
  });

  it('answers me with null for anonymous requests', async () => {
    expect((await server.gql('{ me { id } }')).data).toEqual({ me: null });
  });
});

describe('sessions with a short access token lifetime', () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer({ accessTokenTtlSeconds: 1 }));
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('answers an expired access token with UNAUTHENTICATED and the expiry message, and refresh still works', async () => {
    const session = await signUpConfirmed(server, mail);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await server.gql('{ me { id } }', {}, { token: session.accessToken });
    expect(res.status).toBe(401);
    expect(errorOf(res)).toMatchObject({
      message: 'Your session has expired. Please sign in again.',
      extensions: { errorCode: 'UNAUTHENTICATED' },
    });
    const refreshed = await server.gql<{ refreshSession: AuthPayload }>(REFRESH, { t: session.refreshToken });
    expect((await server.gql('{ me { id } }', {}, { token: refreshed.data!.refreshSession.accessToken })).data).toEqual(
      { me: { id: session.user.id } },
    );
  });
});
