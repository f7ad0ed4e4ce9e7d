import { z } from 'zod';
import { COMMON_PASSWORD, isCommonPassword } from './common-passwords/common-passwords.ts';

/** The password rule of 002 §5: at least 12 characters with four classes; at most 100; not a breached one. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 100;

/** What a password still lacks, in words, or an empty list when it follows the rule. */
export function missingFromPassword(password: string): string[] {
  const missing: string[] = [];
  if (password.length < PASSWORD_MIN) missing.push(`at least ${PASSWORD_MIN} characters`);
  if (!/\p{Lu}/u.test(password)) missing.push('an uppercase letter');
  if (!/\p{Ll}/u.test(password)) missing.push('a lowercase letter');
  if (!/\p{Nd}/u.test(password)) missing.push('a digit');
  if (!/[^\p{L}\p{Nd}\s]/u.test(password)) missing.push('a symbol');
  return missing;
}

function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export const passwordSchema = z.string().superRefine((value, ctx) => {
  if (value.length > PASSWORD_MAX) {
    ctx.addIssue({ code: 'custom', message: `Your password can be at most ${PASSWORD_MAX} characters long.` });
    return;
  }
  const missing = missingFromPassword(value);
  if (missing.length) ctx.addIssue({ code: 'custom', message: `Your password needs ${listInWords(missing)}.` });
  else if (isCommonPassword(value)) ctx.addIssue({ code: 'custom', message: COMMON_PASSWORD });
});

/** A person's (team user's) email is at most 100 characters (000 §9). */
export const EMAIL_MAX = 100;

/** Emails are matched by pattern and stored lower-cased, so one person has one account. */
export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX, `An email address can be at most ${EMAIL_MAX} characters long.`)
  .pipe(z.email({ message: 'Enter a valid email address.' }))
  .transform((e) => e.toLowerCase());

export const personNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter your name.')
  .max(100, 'A name can be at most 100 characters long.');

/** Link tokens are 32 random bytes in base64url; anything else cannot be one of ours. */
export const linkTokenSchema = z
  .string({ error: 'This link is missing its token.' })
  .trim()
  .min(1, 'This link is missing its token.')
  .max(200, 'This link token is not valid.');

export const uuidSchema = z.uuid({ error: 'This id is not valid.' });
