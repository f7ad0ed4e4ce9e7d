import type { Knex } from 'knex';
import { migrations } from '../../../migrations/index.ts';

const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

/** Any fixed number: the key of the advisory lock that one migrating process holds. */
const MIGRATION_LOCK_KEY = 461_002_017;

/**
 * Brings the schema up to date; safe to run on every start and from several processes at once.
 * knex's own lock is a row, which a process killed while migrating leaves set, so that every
 * later start failed with "Migration table is already locked". The advisory lock taken here dies
 * with its session instead: whoever holds it is the only one migrating and may clear knex's row.
 */
export async function migrateLatest(owner: Knex): Promise<string[]> {
  if (await isCurrent(owner)) return [];
  const lock = await owner.transaction();
  try {
    await lock.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY]);
    if (await isCurrent(owner)) return []; // another process migrated while we waited
    await owner.migrate.forceFreeMigrationsLock({ migrationSource: source });
    const [, applied] = (await owner.migrate.latest({ migrationSource: source })) as [number, string[]];
    return applied;
  } finally {
    await lock.commit();
  }
}

/**
 * One read answers the usual start, where nothing is new: exactly our migrations are recorded.
 * Anything else (a new database, a new migration, one recorded that we do not know) goes through
 * knex, which migrates or says what is wrong.
 */
async function isCurrent(owner: Knex): Promise<boolean> {
  const { rows } = (await owner.raw(`select to_regclass('knex_migrations') is not null as present`)) as {
    rows: Array<{ present: boolean }>;
  };
  if (!rows[0]?.present) return false;
  const recorded = new Set((await owner('knex_migrations').pluck('name')) as string[]);
  return recorded.size === migrations.length && migrations.every((m) => recorded.has(m.name));
}
