import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 32 random bytes in base64url: refresh tokens, link tokens and API token secrets. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Only hashes of secrets are stored; a leaked table opens no account. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Six digits, for the one-time code sign-in. */
export function randomSixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * A six-digit code has too little entropy for a bare hash, so it is keyed with the server secret
 * and the challenge id: a copy of the table alone cannot be searched for codes.
 */
export function codeHash(key: Buffer, challengeId: string, code: string): string {
  return createHmac('sha256', key).update(`${challengeId}:${code}`).digest('hex');
}

export function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
