import { SignJWT, jwtVerify } from 'jose';
import type Koa from 'koa';
import * as client from 'openid-client';
import { deriveKey, type Config } from '../../config.ts';
import { AppError, badInput } from '../../errors/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { OidcClients, OidcProviderSettings } from './providers.ts';

/** Holds PKCE verifier, state and nonce between the redirect out and the way back. */
const FLOW_COOKIE = 'fb_oidc';
const FLOW_LIFETIME_SECONDS = 600;
const SCOPE = 'openid email profile';

export interface ProviderIdentity {
  provider: OidcProviderSettings;
  subject: string;
  email: string;
  name: string | undefined;
}

interface FlowState {
  provider: string;
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * The authorization code flow with PKCE, state and nonce. What must survive the round trip lives
 * in a short-lived, signed, httpOnly cookie, so no server-side store is needed.
 */
export class OidcFlow {
  private readonly key: Buffer;
  readonly redirectUri: string;

  constructor(
    private readonly clients: OidcClients,
    config: Pick<Config, 'secretKey' | 'publicUrl'>,
    private readonly logger: Logger,
  ) {
    this.key = deriveKey(config, 'oidc-flow');
    this.redirectUri = new URL('/callback', config.publicUrl).toString();
  }

  /** Returns the provider URL to send the browser to, and sets the flow cookie. */
  async start(koa: Koa.Context, providerKey: string): Promise<URL> {
    const settings = this.clients.settings(providerKey);
    const configuration = await this.clients.configuration(settings.key);
    const flow: FlowState = {
      provider: settings.key,
      verifier: client.randomPKCECodeVerifier(),
      state: client.randomState(),
      nonce: client.randomNonce(),
    };
    const cookie = await new SignJWT({ ...flow })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(`${FLOW_LIFETIME_SECONDS}s`)
      .sign(this.key);
    koa.cookies.set(FLOW_COOKIE, cookie, {
      httpOnly: true,
      sameSite: 'lax', // the provider sends the browser back with a top-level GET
      path: '/',
      secure: koa.secure,
      maxAge: FLOW_LIFETIME_SECONDS * 1000,
      overwrite: true,
    });
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
      ...(settings.key === 'google' || settings.key === 'microsoft' ? { prompt: 'select_account' } : {}),
    });
  }

  /** Finishes the flow from the provider's redirect back (the callback URL as received). */
  async finishFromCallback(koa: Koa.Context, callbackUrl: URL): Promise<ProviderIdentity> {
    const flow = await this.readFlow(koa);
    const providerError = callbackUrl.searchParams.get('error');
    if (providerError) {
      const settings = this.clients.settings(flow.provider);
      throw badInput(
        'code',
        providerError === 'access_denied'
          ? `Sign-in with ${settings.label} was cancelled.`
          : `${settings.label} did not sign you in (${providerError}).`,
      );
    }
    // The provider answers at our registered redirect URI, whatever host served this request.
    const current = new URL(this.redirectUri);
    current.search = callbackUrl.search;
    return this.exchange(flow, current);
  }

  /** Finishes the flow from a code the web app received (confirm email by OIDC, 002 §5). */
  async finishFromCode(koa: Koa.Context, providerKey: string, code: string): Promise<ProviderIdentity> {
    const flow = await this.readFlow(koa);
    if (flow.provider !== providerKey)
      throw badInput('provider', 'This code is from another sign-in provider. Please start again.');
    const configuration = await this.clients.configuration(flow.provider);
    const current = new URL(this.redirectUri);
    current.searchParams.set('code', code);
    current.searchParams.set('state', flow.state);
    const metadata = configuration.serverMetadata();
    if (metadata.authorization_response_iss_parameter_supported) current.searchParams.set('iss', metadata.issuer);
    return this.exchange(flow, current);
  }

  private async exchange(flow: FlowState, current: URL): Promise<ProviderIdentity> {
    const settings = this.clients.settings(flow.provider);
    const configuration = await this.clients.configuration(settings.key);
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      if (typeof claims.email !== 'string' && typeof claims.sub === 'string') {
        claims = { ...claims, ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)) };
      }
    } catch (err) {
      this.logger.warn({ err, provider: settings.key }, 'sign-in with provider failed');
      throw badInput('code', `Sign-in with ${settings.label} did not work. Please try again.`);
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email)
      throw badInput(
        'code',
        `${settings.label} did not share your email address, which Fieldbook needs to sign you in.`,
      );
    if (claims.email_verified === false) {
      throw badInput(
        'code',
        `Your email address is not verified at ${settings.label}. Verify it there, then try again.`,
      );
    }
    const name = typeof claims.name === 'string' ? claims.name : undefined;
    return { provider: settings, subject: String(claims.sub), email, name };
  }

  private async readFlow(koa: Koa.Context): Promise<FlowState> {
    const cookie = koa.cookies.get(FLOW_COOKIE);
    koa.cookies.set(FLOW_COOKIE, null, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: koa.secure,
      overwrite: true,
    });
    const expired = new AppError(
      'BAD_USER_INPUT',
      'This sign-in took too long or was started in another browser. Please start again.',
      { field: 'code' },
    );
    if (!cookie) throw expired;
    try {
      const { payload } = await jwtVerify(cookie, this.key, { algorithms: ['HS256'] });
      const { provider, verifier, state, nonce } = payload;
      if ([provider, verifier, state, nonce].some((v) => typeof v !== 'string')) throw expired;
      return { provider, verifier, state, nonce } as FlowState;
    } catch {
      throw expired;
    }
  }
}
