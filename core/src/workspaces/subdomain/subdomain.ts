import { BANNED_WORDS, RESERVED_FIRST_WORDS } from './words.ts';

/** Generated subdomains are cut to this many characters, at a hyphen boundary (002 §5). */
export const GENERATED_SUBDOMAIN_MAX = 30;
/** Limits of a subdomain a person chooses (002 §5): subdomain-like, at least 4, at most 63. */
export const SUBDOMAIN_MIN = 4;
export const SUBDOMAIN_MAX = 63;
export const SUBDOMAIN_LIKE_MIN = 3;
export const SUBDOMAIN_LIKE_MAX = 50;

const SUBDOMAIN_LIKE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * The generation steps of 002 §5, in order: lowercase; spaces to hyphens; keep only letters,
 * digits, slash and hyphen; trim hyphens; cut at 30 characters at a hyphen boundary.
 */
export function generateSubdomain(text: string): string {
  const lowered = text.toLowerCase();
  const hyphened = lowered.replace(/\s/g, '-');
  const kept = hyphened.replace(/[^a-z0-9/-]/g, '');
  return cutAtHyphen(trimHyphens(kept), GENERATED_SUBDOMAIN_MAX);
}

function trimHyphens(s: string): string {
  return s.replace(/^-+|-+$/g, '');
}

/** Cuts to `max` characters; a word the cut would split is dropped whole when an earlier hyphen exists. */
function cutAtHyphen(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max);
  if (s[max] === '-') return trimHyphens(head);
  const lastHyphen = head.lastIndexOf('-');
  return trimHyphens(lastHyphen > 0 ? head.slice(0, lastHyphen) : head);
}

/** 3 to 50 lowercase letters, digits and hyphens, not starting or ending with a hyphen (002 §5). */
export function isSubdomainLike(value: string): boolean {
  return value.length >= SUBDOMAIN_LIKE_MIN && value.length <= SUBDOMAIN_LIKE_MAX && SUBDOMAIN_LIKE.test(value);
}

export type SubdomainProblem = 'EMPTY' | 'NOT_SUBDOMAIN_LIKE' | 'TOO_SHORT' | 'TOO_LONG' | 'RESERVED' | 'BANNED';

/** Why a subdomain is refused, or null when it may be used. */
export function subdomainProblem(value: string): SubdomainProblem | null {
  if (!value) return 'EMPTY';
  if (value.length > SUBDOMAIN_MAX) return 'TOO_LONG';
  if (value.length < SUBDOMAIN_MIN) return 'TOO_SHORT';
  if (!isSubdomainLike(value)) return 'NOT_SUBDOMAIN_LIKE';
  const words = value.split('-');
  if (words.some((w) => BANNED_WORDS.has(w))) return 'BANNED';
  if (RESERVED_FIRST_WORDS.has(words[0]!)) return 'RESERVED';
  return null;
}

export const SUBDOMAIN_MESSAGES: Readonly<Record<SubdomainProblem, string>> = {
  EMPTY: 'Choose a subdomain.',
  NOT_SUBDOMAIN_LIKE: `A subdomain is ${SUBDOMAIN_LIKE_MIN} to ${SUBDOMAIN_LIKE_MAX} lowercase letters, digits and hyphens, and cannot start or end with a hyphen.`,
  TOO_SHORT: `A subdomain needs at least ${SUBDOMAIN_MIN} characters.`,
  TOO_LONG: `A subdomain can be at most ${SUBDOMAIN_MAX} characters long.`,
  RESERVED: 'That subdomain is reserved. Please choose another.',
  BANNED: 'That subdomain contains a word that is not allowed. Please choose another.',
};

/** The generated subdomain for a name, or null when the rules refuse it (002 §5). */
export function suggestedSubdomainFor(name: string): string | null {
  const generated = generateSubdomain(name);
  return subdomainProblem(generated) ? null : generated;
}
