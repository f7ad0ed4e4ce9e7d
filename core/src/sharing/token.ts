import { randomBytes } from 'node:crypto';

/** Public share tokens are exactly 12 letters or digits (002 §5). */
export const SHARE_TOKEN_LENGTH = 12;
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9]{12}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of 62 below 256: bytes at or above it are dropped so every character is
// equally likely (a plain `byte % 62` would favour the first eight).
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/**
 * A new token from the operating system's cryptographic randomness: 62^12 (about 3·10^21)
 * possibilities, so a link cannot be guessed. `random` exists for tests of the sampling.
 */
export function generateShareToken(random: (size: number) => Buffer = randomBytes): string {
  let token = '';
  while (token.length < SHARE_TOKEN_LENGTH) {
    for (const byte of random(SHARE_TOKEN_LENGTH * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      token += ALPHABET[byte % ALPHABET.length];
      if (token.length === SHARE_TOKEN_LENGTH) break;
    }
  }
  return token;
}
