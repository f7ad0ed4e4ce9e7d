import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, signInAtProvider, TestBrowser, type TestOidcProvider } from '../../support/oidc.ts';
import { loadConfig } from '../../../core/src/config.ts';
import { configuredProviders } from '../../../core/src/identity/oidc/providers.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  AUTH_FIELDS,
  errorOf,
  signUpConfirmed,
  startIdentityServer,
  stopIdentityServer,
  type AuthPayload,
} from './support.ts';

/** Fieldbook's PUBLIC_URL in tests; the browser maps it onto the real test server. */
const PUBLIC = 'http://localhost:3000';

describe('sign-in with an OpenID Connect provider', () => {
  let provider: TestOidcProvider;
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    provider = await startOidcProvider({
      redirectUri: `${PUBLIC}/callback`,
      accounts: [
        { sub: 'grace', email: 'Grace.Hopper@Example.com', name: 'Grace Hopper' },
        { sub: 'unverified', email: 'unverified@example.com', emailVerified: false, name: 'Un Verified' },
        { sub: 'ada', email: 'ada-oidc@example.com', name: 'Ada' },
      ],
    });
    ({ server, mail } = await startIdentityServer({
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        allowInsecure: true,
      },
    }));
  });
  afterAll(async () => {
    await stopIdentityServer({ server, mail });
    await provider?.close();
  });

  const newBrowser = () => new TestBrowser({ [PUBLIC]: server.url });

  /** Walks start -> provider form -> callback; returns the browser and the callback's answer. */
  async function signInThroughProvider(sub: string) {
    const browser = newBrowser();
    const callback = await signInAtProvider(browser, `${server.url}/auth/oidc/oidc/start`, provider.issuer, sub);
    expect(callback.href.startsWith(`${PUBLIC}/callback?`)).toBe(true);
    const landed = await browser.request(callback);
    return { browser, landed };
  }

  async function refreshWithCookie(browser: TestBrowser) {
    const res = await browser.request(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation { refreshSession { ${AUTH_FIELDS} } }` }),
    });
    return (await res.json()) as { data: { refreshSession: AuthPayload } | null; errors?: Array<{ message: string }> };
  }

  it('goes from /auth/oidc/oidc/start through the provider to a signed-in session', async () => {
    const { browser, landed } = await signInThroughProvider('grace');
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe('/auth/workspaces');
    expect(browser.cookies(server.url).has('fb_refresh')).toBe(true);

    const session = await refreshWithCookie(browser);
    expect(session.errors).toBeUndefined();
    const { user, accessToken } = session.data!.refreshSession;
    expect(user).toMatchObject({
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      emailConfirmed: true,
      hasPassword: false,
    });
    expect((await server.gql('{ me { email } }', {}, { token: accessToken })).data).toEqual({
      me: { email: 'grace.hopper@example.com' },
    });

    const identity = await server.fieldbook.db.owner('user_identities').where({ user_id: user.id }).first();
    expect(identity).toMatchObject({ provider: 'oidc', subject: 'grace', connection_strategy: 'oidc' });
  });

  it('finds the same person on the next sign-in instead of creating another', async () => {
    await signInThroughProvider('grace');
    const users = await server.fieldbook.db.owner('users').whereRaw('lower(email) = ?', ['grace.hopper@example.com']);
    expect(users).toHaveLength(1);
  });

  it('links a provider identity to the existing account with the same email', async () => {
    const existing = await signUpConfirmed(server, mail, 'ada-oidc@example.com');
    const { browser } = await signInThroughProvider('ada');
    const session = await refreshWithCookie(browser);
    expect(session.data!.refreshSession.user.id).toBe(existing.user.id);
    expect(session.data!.refreshSession.user.hasPassword).toBe(true);
  });

  it('sends the browser back to sign-in with a message when the provider has not verified the email', async () => {
    const { browser, landed } = await signInThroughProvider('unverified');
    const location = new URL(landed.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/auth/login');
    expect(location.searchParams.get('error')).toMatch(/not verified/);
    expect(browser.cookies(server.url).has('fb_refresh')).toBe(false);
  });

  it('refuses a callback that was not started in this browser', async () => {
    const stranger = newBrowser();
    const res = await stranger.request(`${server.url}/callback?code=stolen&state=x`);
    expect(new URL(res.headers.get('location')!, server.url).searchParams.get('error')).toMatch(
      /started in another browser/,
    );
  });

  it('confirms an email by OIDC code through GraphQL too', async () => {
    const browser = newBrowser();
    const callback = await signInAtProvider(browser, `${server.url}/auth/oidc/oidc/start`, provider.issuer, 'grace');
    const code = callback.searchParams.get('code')!;
    const res = await browser.request(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation($code: String!) { confirmEmail(input: { method: OIDC, provider: "oidc", code: $code }) { ${AUTH_FIELDS} } }`,
        variables: { code },
      }),
    });
    const body = (await res.json()) as { data: { confirmEmail: AuthPayload } };
    expect(body.data.confirmEmail.user.email).toBe('grace.hopper@example.com');
  });

  it('answers an unknown provider with 404 and lists the configured one in the team environment', async () => {
    const res = await fetch(`${server.url}/auth/oidc/nope/start`, { redirect: 'manual' });
    expect(new URL(res.headers.get('location')!, server.url).searchParams.get('error')).toBe(
      'The sign-in provider "nope" was not found.',
    );
    const env = await server.gql(
      '{ teamEnvironment { teamId passwordLogin googleLogin microsoftLogin ssoLogin oidcIssuer } }',
    );
    expect(env.data).toEqual({
      teamEnvironment: {
        teamId: null,
        passwordLogin: true,
        googleLogin: false,
        microsoftLogin: false,
        ssoLogin: true,
        oidcIssuer: provider.issuer,
      },
    });
    expect(
      errorOf(
        await server.gql(
          'mutation { confirmEmail(input: { method: OIDC, provider: "oidc", code: "x" }) { accessToken } }',
        ),
      ).extensions?.errorCode,
    ).toBe('BAD_USER_INPUT');
  });
});

describe('configured sign-in providers', () => {
  const config = (env: Record<string, string>) => loadConfig({ ...env }, { secretKey: 'x'.repeat(40) });

  it('turns on Google and Microsoft when their client ids are set, with their issuers', () => {
    const providers = configuredProviders(
      config({
        GOOGLE_CLIENT_ID: 'g-id',
        GOOGLE_CLIENT_SECRET: 'g-secret',
        MICROSOFT_CLIENT_ID: 'm-id',
        MICROSOFT_TENANT: 'contoso.onmicrosoft.com',
      }),
    );
    expect([...providers.keys()]).toEqual(['google', 'microsoft']);
    expect(providers.get('google')).toMatchObject({
      issuer: 'https://accounts.google.com',
      clientId: 'g-id',
      strategy: 'google-oauth2',
    });
    expect(providers.get('microsoft')).toMatchObject({
      issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
      strategy: 'waad',
    });
  });

  it('uses the common Microsoft tenant by default and needs both issuer and client id for generic OIDC', () => {
    expect(configuredProviders(config({ MICROSOFT_CLIENT_ID: 'm' })).get('microsoft')!.issuer).toBe(
      'https://login.microsoftonline.com/common/v2.0',
    );
    expect(configuredProviders(config({ OIDC_ISSUER: 'https://id.example.com' })).size).toBe(0);
    expect(
      configuredProviders(config({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'c' })).get('oidc'),
    ).toMatchObject({ issuer: 'https://id.example.com', auth: 'basic' });
  });
});
