import type { Knex } from 'knex';
import { passwordHashOf } from '../db/password-hashes.ts';

/** A person as the API shows them. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  emailConfirmed: boolean;
}

/** The users row with what sign-in needs; never leaves the identity module. */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  /**
   * The password's hash when the row was found by email or id (read apart, see
   * db/password-hashes.ts); in rows returned by writes, only a stand-in saying one is set.
   */
  password_hash: string | null;
  email_confirmed_at: Date | null;
  failed_login_count: number;
  locked_at: Date | null;
  /** Per-person settings (theme, seen tours...); every column is read with the row. */
  preferences?: unknown;
  created_at: Date;
}

export const toUserRecord = (row: UserRow): UserRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  emailConfirmed: row.email_confirmed_at !== null,
});

/** The row with its password's hash in place of the stand-in the users table holds. */
async function withPasswordHash(db: Knex, row: UserRow | undefined): Promise<UserRow | null> {
  if (!row) return null;
  return row.password_hash === null ? row : { ...row, password_hash: await passwordHashOf(db, row.id) };
}

/** Users are global (no workspace), so any connection may read them (their password hashes apart). */
export async function findUserRowByEmail(db: Knex, email: string): Promise<UserRow | null> {
  return withPasswordHash(db, await db<UserRow>('users').whereRaw('lower(email) = ?', [email.toLowerCase()]).first());
}

export async function findUserRowById(db: Knex, id: string): Promise<UserRow | null> {
  return withPasswordHash(db, await db<UserRow>('users').where({ id }).first());
}

/**
 * Inserts a user; returns null when the email is taken (the unique index on lower(email) decides,
 * so two sign-ups racing for one email cannot both win).
 */
export async function insertUser(
  db: Knex,
  input: { email: string; name: string; passwordHash: string | null; emailConfirmed: boolean },
): Promise<UserRow | null> {
  const rows = await db.raw<{ rows: UserRow[] }>(
    `insert into users (email, name, password_hash, email_confirmed_at)
     values (?, ?, ?, ${input.emailConfirmed ? 'now()' : 'null'})
     on conflict ((lower(email))) do nothing
     returning *`,
    [input.email.toLowerCase(), input.name, input.passwordHash],
  );
  return rows.rows[0] ?? null;
}

/** Marks the email confirmed (a link, a code or a provider proved the person reads it). */
export async function confirmUserEmail(db: Knex, userId: string): Promise<void> {
  await db('users')
    .where({ id: userId })
    .whereNull('email_confirmed_at')
    .update({ email_confirmed_at: db.fn.now(), updated_at: db.fn.now() });
}

/** The name to use for a new account when none was given: the email's local part. */
export function defaultNameFor(email: string): string {
  return (email.split('@')[0] ?? email).slice(0, 100);
}
