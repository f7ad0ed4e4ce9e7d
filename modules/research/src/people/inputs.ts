import { z } from 'zod';
import { badInput } from '@fieldbook/core';

/** Limits of people (contacts), 000 §9: name 300, email 320; the others keep rows sane. */
export const PEOPLE_LIMITS = {
  name: 300,
  email: 320,
  company: 200,
  title: 200,
  avatarUrl: 3000,
  /** 000 §9: a search query is at most 2000 characters. */
  search: 2000,
  pageSize: 200,
} as const;

/** Emails are validated by pattern (002 §5): something@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const personName = z
  .string({ error: 'Give the person a name.' })
  .trim()
  .min(1, 'Give the person a name.')
  .max(PEOPLE_LIMITS.name, `A person’s name can be at most ${PEOPLE_LIMITS.name} characters long.`);

/** Blank clears the address. */
export const personEmail = z
  .string()
  .trim()
  .max(PEOPLE_LIMITS.email, `An email address can be at most ${PEOPLE_LIMITS.email} characters long.`)
  .refine((v) => v === '' || EMAIL_PATTERN.test(v), 'Enter a valid email address, like name@example.com.')
  .transform((v) => (v === '' ? null : v));

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} can be at most ${max} characters long.`)
    .transform((v) => (v === '' ? null : v));

export const personCompany = optionalText('A company name', PEOPLE_LIMITS.company);
export const personTitle = optionalText('A job title', PEOPLE_LIMITS.title);
export const personAvatarUrl = z
  .string()
  .trim()
  .max(PEOPLE_LIMITS.avatarUrl, `An avatar URL can be at most ${PEOPLE_LIMITS.avatarUrl} characters long.`)
  .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'An avatar URL must start with http:// or https://.')
  .transform((v) => (v === '' ? null : v));

export const pageSize = z
  .number()
  .int()
  .min(1, 'first must be at least 1.')
  .max(PEOPLE_LIMITS.pageSize, `A page can have at most ${PEOPLE_LIMITS.pageSize} items.`);

/** Opaque list cursors hold the id of the last item of the page. */
export function decodeIdCursor(cursor: string | null | undefined, field = 'after'): string | null {
  if (!cursor) return null;
  const id = /^id:([0-9a-f-]{36})$/i.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (!id) throw badInput(field, 'This list cursor is not valid. Start again from the first page.');
  return id;
}
