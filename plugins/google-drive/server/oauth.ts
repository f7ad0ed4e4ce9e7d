import type { OAuthFlow } from '@fieldbook/extensions-sdk/server';
import { credentials, driveClient, requiredConfig, storedTokens } from './drive.ts';

/** Read-only Drive access, and the address that tells people which Google account they connected (001 §7). */
export const GOOGLE_DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive.readonly', 'email'] as const;

/** The email in Google's OpenID token. It came straight from Google's token endpoint over TLS, so it is read as is. */
export function emailOf(idToken: string | null): string | null {
  const payload = idToken?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown; sub?: unknown };
    return typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}

/** Each person connects their own Google Drive, so imports see only what they can see. */
export const googleDriveOAuth: OAuthFlow = {
  level: 'user',
  authorizeUrl({ state, redirectUri }, ctx) {
    const url = new URL(requiredConfig(ctx, 'authorizeUrl'));
    url.searchParams.set('client_id', requiredConfig(ctx, 'clientId'));
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', GOOGLE_DRIVE_SCOPES.join(' '));
    // A refresh token comes only with offline access, and again only when consent is asked anew.
    url.searchParams.set('access_type', 'offline');
    url.searchParams.set('prompt', 'consent');
    url.searchParams.set('include_granted_scopes', 'true');
    url.searchParams.set('state', state);
    return url.toString();
  },
  async exchange({ code, redirectUri }, ctx) {
    const tokens = await driveClient(ctx).exchangeCode({ ...credentials(ctx), code, redirectUri });
    const email = emailOf(tokens.idToken);
    return {
      ...(email ? { externalId: email, label: email } : { label: 'Google Drive' }),
      tokens: storedTokens(tokens),
    };
  },
};
