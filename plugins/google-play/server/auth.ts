import { sign } from 'node:crypto';
import { fetchWithRetry, PluginInputError, type PluginHttp } from '@fieldbook/extensions-sdk/server';

export const ANDROID_PUBLISHER_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

/** The key as PEM whatever way it was pasted (line breaks dropped, or `\n` escapes from the JSON key file). */
export function normalizePem(text: string): string {
  const flat = text.replace(/\\n/g, '\n').trim();
  const m = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(flat);
  if (!m) return flat;
  const body = m[2]!.replace(/\s+/g, '');
  return `-----BEGIN ${m[1]}-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${m[1]}-----\n`;
}

// The sandbox's Buffer (the npm package) knows no base64url: it is made from base64.
const base64url = (bytes: Uint8Array) =>
  Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const part = (value: unknown) => base64url(Buffer.from(JSON.stringify(value)));

/**
 * An access token for the service account, by OAuth 2.0's JWT bearer grant (RFC 7523) as Google
 * documents it for server-to-server calls: an RS256 assertion signed with the account's key.
 */
export async function serviceAccountToken(
  http: PluginHttp,
  account: { clientEmail: string; privateKey: string; tokenUrl: string },
  now = Date.now(),
): Promise<string> {
  const iat = Math.floor(now / 1000);
  const input = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: account.clientEmail, scope: ANDROID_PUBLISHER_SCOPE, aud: account.tokenUrl, iat, exp: iat + 3600 })}`;
  let signature: Buffer;
  try {
    signature = sign('sha256', Buffer.from(input), normalizePem(account.privateKey));
  } catch {
    throw new PluginInputError(
      "The service account's private key cannot be read; paste its private_key, from -----BEGIN PRIVATE KEY----- to its end.",
    );
  }
  const res = await fetchWithRetry(http, account.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: `${input}.${base64url(signature)}`,
    }).toString(),
  });
  if (res.status === 400 || res.status === 401) {
    throw new PluginInputError(
      'Google refused the service account (its email address or private key); check them in Settings → Extensions → Google Play.',
    );
  }
  if (!res.ok) throw new Error(`Google's token endpoint answered HTTP ${res.status}.`);
  return ((await res.json()) as { access_token: string }).access_token;
}
