import type { Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { freePort } from './ports.ts';

/** A person the local provider signs in; their `sub` is also what goes into its sign-in form. */
export interface ProviderAccount {
  sub: string;
  email: string;
  emailVerified?: boolean;
  name: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider (`oidc-provider`) on a free local port, with one client
 * registered for `redirectUri` and the given accounts. Its development sign-in form accepts any
 * password; consent is granted automatically, as a first-party provider would.
 */
export async function startOidcProvider(opts: {
  redirectUri: string;
  accounts: ProviderAccount[];
}): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'fieldbook-test';
  const clientSecret = 'fieldbook-test-secret-that-is-long-enough';
  const accounts = new Map(opts.accounts.map((a) => [a.sub, a]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test', alg: 'RS256', use: 'sig' };
  const minutes = 600;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['oidc-test-cookie-key'] },
    jwks: { keys: [signingKey] },
    ttl: {
      Interaction: minutes,
      Grant: minutes,
      Session: minutes,
      AccessToken: minutes,
      IdToken: minutes,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: account.sub,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          name: account.name,
        }),
      };
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const clientId = ctx.oidc.client!.clientId;
      const existing = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('oidc-provider server error', err));

  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A minimal browser: keeps cookies per origin and follows redirects one at a time, so a test can
 * walk a sign-in through Fieldbook and the provider. `aliases` maps an origin a page links to
 * (Fieldbook's PUBLIC_URL) onto the origin it is really served at.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(private readonly aliases: Record<string, string> = {}) {}

  resolve(url: string | URL, base?: string | URL): URL {
    const u = new URL(url, base);
    const alias = this.aliases[u.origin];
    return alias ? new URL(u.pathname + u.search, alias) : u;
  }

  cookies(origin: string): Map<string, string> {
    const o = this.resolve(origin).origin;
    let jar = this.jars.get(o);
    if (!jar) this.jars.set(o, (jar = new Map()));
    return jar;
  }

  cookieHeader(url: URL): string {
    return [...this.cookies(url.origin)].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** One request; cookies are stored and sent, redirects are not followed. */
  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = this.resolve(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(target, { ...init, headers, redirect: 'manual' });
    const jar = this.cookies(target.origin);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /** GETs `url` and follows redirects until `stop` says so (or none is left); returns the last response. */
  async follow(url: string | URL, stop: (url: URL) => boolean = () => false): Promise<{ url: URL; res: Response }> {
    let current = this.resolve(url);
    for (let hops = 0; hops < 20; hops++) {
      const res = await this.request(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: current, res };
      const next = new URL(location, current);
      if (stop(next)) return { url: next, res };
      current = this.resolve(next);
    }
    throw new Error('Too many redirects');
  }
}

/**
 * Signs in at the provider's development form as `sub`, starting from Fieldbook's start URL,
 * and stops at the first redirect that leaves the provider for Fieldbook's callback.
 */
export async function signInAtProvider(
  browser: TestBrowser,
  startUrl: string,
  providerIssuer: string,
  sub: string,
): Promise<URL> {
  const toForm = await browser.follow(startUrl, (u) => u.pathname.startsWith('/interaction/'));
  if (!toForm.url.pathname.startsWith('/interaction/'))
    throw new Error(`Expected the provider's sign-in form, got ${toForm.url} (${toForm.res.status})`);
  const form = await browser.request(toForm.url);
  if (form.status !== 200) throw new Error(`Sign-in form answered ${form.status}`);
  const submitted = await browser.request(toForm.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ prompt: 'login', login: sub, password: 'any' }).toString(),
  });
  const resume = submitted.headers.get('location');
  if (!resume) throw new Error(`Sign-in form submit answered ${submitted.status}`);
  const back = await browser.follow(new URL(resume, providerIssuer), (u) => !u.href.startsWith(providerIssuer));
  return back.url;
}
