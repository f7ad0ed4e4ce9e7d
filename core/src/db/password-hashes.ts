import type { Knex } from 'knex';
import { PRIVATE_SCHEMA } from './privileges.ts';

/**
 * Password hashes live in `fieldbook_private` (migration 0016), out of the application role's
 * reach: no request can read one, by mistake or through a query it was tricked into. Checking a
 * password is the one thing that needs a hash, and for it the process reads with the owner
 * connection paired with the application connection the caller holds. Writes still go through
 * `users.password_hash`, which a trigger empties into the private table.
 */
const ownerFor = new WeakMap<object, Knex>();

/** A connection's settings object: shared by the connection and every transaction opened on it. */
const settingsOf = (db: Knex): object => (db as unknown as { client: { config: object } }).client.config;

/** Lets password checks made on `app` (or its transactions) read hashes with `owner`. */
export function pairForPasswordHashes(app: Knex, owner: Knex): void {
  ownerFor.set(settingsOf(app), owner);
}

/** The stored hash of a person's password, or null when they have none. */
export async function passwordHashOf(db: Knex, userId: string): Promise<string | null> {
  // An unpaired connection reads for itself: the owner's own (migrations, tests) may.
  const reader = ownerFor.get(settingsOf(db)) ?? db;
  const row = (await reader
    .withSchema(PRIVATE_SCHEMA)
    .from('password_hashes')
    .where({ user_id: userId })
    .first('password_hash')) as { password_hash: string } | undefined;
  return row?.password_hash ?? null;
}
