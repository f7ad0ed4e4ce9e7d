import type { Knex } from 'knex';
import { migrations } from '../../../migrations/index.ts';

const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

/** Brings the schema up to date; safe to run on every start (knex takes a lock). */
export async function migrateLatest(owner: Knex): Promise<string[]> {
  const [, applied] = (await owner.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}
