import type { Knex } from 'knex';
import { badInput } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { z } from 'zod';
import { emailSchema, passwordSchema, personNameSchema } from './inputs.ts';
import type { PasswordHasher } from './passwords.ts';
import {
  defaultNameFor,
  findUserRowByEmail,
  insertUser,
  toUserRecord,
  type UserRecord,
  type UserRow,
} from './users.ts';

export const EMAIL_TAKEN = 'An account with this email already exists. Sign in instead.';

export const passwordSignUpSchema = z.object({ email: emailSchema, password: passwordSchema, name: personNameSchema });

/** Checks the password rule and creates an unconfirmed password account. */
export async function createPasswordUserRow(
  db: Knex,
  hasher: PasswordHasher,
  input: { email: string; password: string; name: string },
): Promise<UserRow> {
  const valid = validate(passwordSignUpSchema, input);
  if (await findUserRowByEmail(db, valid.email)) throw badInput('email', EMAIL_TAKEN);
  const passwordHash = await hasher.hash(valid.password);
  const row = await insertUser(db, { email: valid.email, name: valid.name, passwordHash, emailConfirmed: false });
  if (!row) throw badInput('email', EMAIL_TAKEN);
  return row;
}

/**
 * Finds a person by email or creates a passwordless account. Confirming an email another way (a
 * code, a provider) also clears a password nobody ever confirmed: whoever set it may not own the
 * address, and must not keep a way into the account of the person who does.
 */
export async function findOrCreateUserRow(
  db: Knex,
  input: { email: string; name?: string; emailConfirmed: boolean },
): Promise<UserRow> {
  const email = validate(emailSchema, input.email);
  const existing = await findUserRowByEmail(db, email);
  if (existing) {
    if (!input.emailConfirmed || existing.email_confirmed_at) return existing;
    const [updated] = await db('users')
      .where({ id: existing.id })
      .update({ email_confirmed_at: db.fn.now(), password_hash: null, updated_at: db.fn.now() })
      .returning<UserRow[]>('*');
    return updated!;
  }
  const name = input.name?.trim().slice(0, 100) || defaultNameFor(email);
  const created = await insertUser(db, { email, name, passwordHash: null, emailConfirmed: input.emailConfirmed });
  // Another request created the same person a moment ago: use that account.
  return created ?? findOrCreateUserRow(db, input);
}

export async function findUserByEmail(db: Knex, email: string): Promise<UserRecord | null> {
  const row = await findUserRowByEmail(db, email);
  return row ? toUserRecord(row) : null;
}
