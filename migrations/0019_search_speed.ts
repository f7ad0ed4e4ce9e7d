import type { Knex } from 'knex';

/**
 * Search ranks by relevance among a type's most recently updated matches (the PostgreSQL engine's
 * candidate bound): these indexes read a workspace's notes, insights and highlights newest first,
 * ties by id, so a common word's candidates are the first rows of one index range rather than a
 * sort of every match.
 */
const TABLES = ['notes', 'insights', 'highlights'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw('create index if not exists ?? on ?? (workspace_id, updated_at desc, id)', [
      `${table}_recent`,
      table,
    ]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.raw('drop index if exists ??', [`${table}_recent`]);
}
