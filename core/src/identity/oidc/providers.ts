import * as client from 'openid-client';
import type { Config } from '../../config.ts';
import { AppError, notFound } from '../../errors/app-error.ts';

/** The sign-in providers Fieldbook knows; each is on when its client id is configured. */
export type OidcProviderKey = 'oidc' | 'google' | 'microsoft';

export interface OidcProviderSettings {
  key: OidcProviderKey;
  /** The name people see in messages. */
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** Connection strategy of 002 §3 sign-in claims. */
  strategy: 'oidc' | 'google-oauth2' | 'waad';
  /** How the client authenticates at the token endpoint. */
  auth: 'basic' | 'post';
}

export function configuredProviders(
  config: Pick<Config, 'oidc' | 'google' | 'microsoft'>,
): Map<OidcProviderKey, OidcProviderSettings> {
  const out = new Map<OidcProviderKey, OidcProviderSettings>();
  const { oidc, google, microsoft } = config;
  if (oidc.issuer && oidc.clientId) {
    // Basic is the default method of the OpenID Connect spec, so any provider accepts it.
    out.set('oidc', {
      key: 'oidc',
      label: 'single sign-on',
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      strategy: 'oidc',
      auth: 'basic',
    });
  }
  if (google.clientId) {
    out.set('google', {
      key: 'google',
      label: 'Google',
      issuer: 'https://accounts.google.com',
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      strategy: 'google-oauth2',
      auth: 'post',
    });
  }
  if (microsoft.clientId) {
    out.set('microsoft', {
      key: 'microsoft',
      label: 'Microsoft',
      issuer: `https://login.microsoftonline.com/${encodeURIComponent(microsoft.tenant)}/v2.0`,
      clientId: microsoft.clientId,
      clientSecret: microsoft.clientSecret,
      strategy: 'waad',
      auth: 'post',
    });
  }
  return out;
}

/**
 * Discovered provider configurations, fetched on first use and kept; a failed discovery is not
 * kept, so the next sign-in tries again.
 */
export class OidcClients {
  private readonly providers: Map<OidcProviderKey, OidcProviderSettings>;
  private readonly discovered = new Map<OidcProviderKey, Promise<client.Configuration>>();

  constructor(private readonly config: Pick<Config, 'oidc' | 'google' | 'microsoft'>) {
    this.providers = configuredProviders(config);
  }

  settings(key: string): OidcProviderSettings {
    const found = this.providers.get(key as OidcProviderKey);
    if (!found) throw notFound(`The sign-in provider "${key}"`);
    return found;
  }

  configuration(key: string): Promise<client.Configuration> {
    const settings = this.settings(key);
    let pending = this.discovered.get(settings.key);
    if (!pending) {
      pending = this.discover(settings);
      this.discovered.set(settings.key, pending);
      pending.catch(() => this.discovered.delete(settings.key));
    }
    return pending;
  }

  private async discover(s: OidcProviderSettings): Promise<client.Configuration> {
    const auth = !s.clientSecret
      ? client.None()
      : s.auth === 'basic'
        ? client.ClientSecretBasic(s.clientSecret)
        : client.ClientSecretPost(s.clientSecret);
    try {
      return await client.discovery(new URL(s.issuer), s.clientId, s.clientSecret, auth, {
        execute: this.config.oidc.allowInsecure ? [client.allowInsecureRequests] : [],
        timeout: 10,
      });
    } catch (err) {
      throw new AppError(
        'INTERNAL_SERVER_ERROR',
        `We could not reach ${s.label} just now. Please try again in a moment.`,
        { cause: err },
      );
    }
  }
}
