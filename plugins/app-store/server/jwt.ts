import { sign } from 'node:crypto';
import { PluginInputError } from '@fieldbook/extensions-sdk/server';

/**
 * The key as PEM whatever way it was pasted: a one-line settings field drops line breaks, and a
 * key copied out of JSON carries `\n` escapes.
 */
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
 * The token App Store Connect takes (ES256, at most 20 minutes, audience `appstoreconnect-v1`),
 * signed with the API key's private key (the .p8 file's PEM text).
 */
export function appStoreToken(key: { issuerId: string; keyId: string; privateKey: string }, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const input = `${part({ alg: 'ES256', kid: key.keyId, typ: 'JWT' })}.${part({ iss: key.issuerId, iat, exp: iat + 15 * 60, aud: 'appstoreconnect-v1' })}`;
  let signature: Buffer;
  try {
    signature = sign('sha256', Buffer.from(input), { key: normalizePem(key.privateKey), dsaEncoding: 'ieee-p1363' });
  } catch {
    throw new PluginInputError(
      'The App Store Connect private key cannot be read; paste the whole .p8 file, from -----BEGIN PRIVATE KEY----- to its end.',
    );
  }
  return `${input}.${base64url(signature)}`;
}
