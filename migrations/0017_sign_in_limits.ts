import type { Knex } from 'knex';

/**
 * Limits on password attempts, and refresh tokens that were rotated out.
 *
 * `sign_in_limits` holds one fixed-window counter per key (a client address or an email), shared
 * by every web process so that scaling out does not multiply the allowance. It is UNLOGGED: the
 * counters are short-lived and rewritten on every attempt, so they skip the write-ahead log, and
 * losing them in a crash only resets the windows. Expired rows are deleted by the processes.
 *
 * `retired_refresh_tokens` remembers the hash of every refresh token a rotation replaced, so that
 * one presented again is recognised as reuse (a copy in someone else's hands) and ends its whole
 * session. Rows go with their session, and processes delete those of ended sessions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create unlogged table sign_in_limits (
    key text primary key,
    resets_at timestamptz not null,
    attempts integer not null
  )`);
  await knex.raw('create index sign_in_limits_resets_at on sign_in_limits (resets_at)');

  await knex.schema.createTable('retired_refresh_tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.uuid('session_id').notNullable().references('sessions.id').onDelete('CASCADE').index();
    t.timestamp('retired_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('retired_refresh_tokens');
  await knex.schema.dropTableIfExists('sign_in_limits');
}
