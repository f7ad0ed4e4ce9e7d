import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Passwords from breach corpora (OWASP ASVS 2.1.7), shipped with the code so that checking one
 * never sends it anywhere. `list.txt` holds the 49,193 distinct lower-cased passwords of at least
 * 4 characters from the breach-frequency list of `@zxcvbn-ts/language-common` 4.1.3 (MIT; itself
 * drawn from public breach corpora), one per line. Regenerate with:
 *
 *   node -e 'import("@zxcvbn-ts/language-common").then(({ dictionary: d }) => console.log(
 *     [...new Set(d["passwords-common"].map((w) => w.toLowerCase()))].filter((w) => w.length >= 4).join("\n")))'
 */
let list: ReadonlySet<string> | null = null;

/** Read on first use, not at start-up: only sign-up and password changes need it. */
function commonPasswords(): ReadonlySet<string> {
  list ??= new Set(
    readFileSync(join(import.meta.dirname, 'list.txt'), 'utf8')
      .split('\n')
      .filter(Boolean),
  );
  return list;
}

/**
 * Whether a password is a breached one, ignoring case, or one with only symbols, or digits and
 * symbols, added at its end: a composition rule makes people turn `password123` into
 * `Password123!`, and that is the first thing a guesser tries.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.normalize('NFKC').toLowerCase();
  const candidates = [lower, lower.replace(/[^\p{L}\p{N}]+$/u, ''), lower.replace(/[^\p{L}]+$/u, '')];
  const known = commonPasswords();
  return candidates.some((c) => c.length >= 4 && known.has(c));
}

export const COMMON_PASSWORD =
  'This password is too common: it appears in lists of passwords leaked from other sites, perhaps with digits or symbols added. Choose one that is harder to guess.';
