import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { deriveKey, type Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { APP_ROLE } from './app-role.ts';
import { narrowAppRole } from './privileges.ts';

// Bigints (counts) come back as numbers; values past 2^53 do not occur in our counts.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

export interface Databases {
  /** Owner connection: migrations and the job queue. Never used for tenant data in requests. */
  owner: Knex;
  /** Application connection, subject to row-level security. */
  app: Knex;
  destroy(): Promise<void>;
}

/**
 * A pool. Given a logger, knex's own warnings go to it instead of the console; those about
 * connections that failed go at debug level, since the outage log already says the database is
 * away (once per interval, where knex would print a stack for every attempt).
 */
export function createKnex(connectionString: string, poolMax: number, logger?: Logger): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString, application_name: 'fieldbook' },
    pool: { min: 0, max: poolMax },
    ...(logger
      ? {
          log: {
            warn: (message: string) =>
              /^(Connection Error|Acquire connection error)/.test(String(message))
                ? logger.debug({ knex: String(message) }, 'database connection failed')
                : logger.warn({ knex: message }, 'knex'),
            error: (message: string) => logger.error({ knex: message }, 'knex'),
            deprecate: (method: string, alternative: string) =>
              logger.warn({ method, alternative }, 'knex: deprecated'),
            debug: (message: string) => logger.debug({ knex: message }, 'knex'),
          },
        }
      : {}),
  });
}

/** The app role's password is derived from the secret key, so no second secret needs storing. */
export function appRolePassword(config: Pick<Config, 'secretKey'>): string {
  return deriveKey(config, 'db-app-role').toString('hex');
}

export function appUrlFrom(ownerUrl: string, password: string): string {
  const url = new URL(ownerUrl);
  url.username = APP_ROLE;
  url.password = password;
  return url.toString();
}

/**
 * Creates (or updates) the application role and grants it data access only. Runs as the owner
 * after migrations, so new tables are covered too. Bookkeeping tables stay out of its reach, and
 * secrets it never reads are narrowed away afterwards (privileges.ts).
 */
export async function ensureAppRole(owner: Knex, password: string): Promise<void> {
  if (!/^[0-9a-f]+$/.test(password)) throw new Error('app role password must be hex');
  const exists = await owner.raw('select 1 from pg_roles where rolname = ?', [APP_ROLE]);
  const verb = exists.rows.length ? 'ALTER' : 'CREATE';
  await owner.raw(
    `${verb} ROLE ${APP_ROLE} WITH LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE PASSWORD '${password}'`,
  );
  const { rows } = await owner.raw('select current_database() as db');
  const db = (rows[0] as { db: string }).db;
  await owner.raw(`GRANT CONNECT ON DATABASE "${db}" TO ${APP_ROLE}`);
  await owner.raw(`GRANT USAGE ON SCHEMA public TO ${APP_ROLE}`);
  await owner.raw(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE}`);
  await owner.raw(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE}`);
  await owner.raw(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${APP_ROLE}`);
  await owner.raw(`REVOKE ALL ON knex_migrations, knex_migrations_lock FROM ${APP_ROLE}`);
  await narrowAppRole(owner);
}

/**
 * Lets the application role add jobs inside its own transactions, so a job is queued if and only
 * if the work that asked for it commits. It may read and add queue rows, never change or remove
 * them, and job data carries ids, not content. Runs after the queue's schema and queues exist;
 * later tables (new queues' partitions) are covered by the default privileges.
 */
export async function grantJobQueueAccess(owner: Knex, schema: string): Promise<void> {
  if (!/^[a-z_]+$/.test(schema)) throw new Error('invalid job schema name');
  await owner.raw(`GRANT USAGE ON SCHEMA ${schema} TO ${APP_ROLE}`);
  await owner.raw(`GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA ${schema} TO ${APP_ROLE}`);
  await owner.raw(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${APP_ROLE}`);
  await owner.raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT ON TABLES TO ${APP_ROLE}`);
}
