import type { Config } from '../config.ts';
import { deriveKey } from '../config.ts';
import type { Logger } from '../logger.ts';
import { appRolePassword, appUrlFrom, createKnex, ensureAppRole, type Databases } from './connections.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts';
import { checkNestedAcquisition } from './held-connections.ts';
import { migrateLatest } from './migrate.ts';
import { pairForPasswordHashes } from './password-hashes.ts';
import { sharePool } from './pool-share.ts';

export interface OpenedDatabases extends Databases {
  ownerUrl: string;
  /** The application role's URL (row-level security applies). */
  appUrl: string;
  embedded: EmbeddedDatabase | null;
  /** Milliseconds spent starting the embedded PostgreSQL (0 with DATABASE_URL) and migrating. */
  startup: { postgresMs: number; migrationsMs: number };
}

const EMBEDDED_DB = 'fieldbook';

/**
 * Connects to PostgreSQL (starting the embedded one when DATABASE_URL is unset), migrates, makes
 * sure the application role exists, and opens the owner and application pools.
 */
export async function openDatabases(
  config: Config,
  logger: Logger,
  opts: { migrate: boolean },
): Promise<OpenedDatabases> {
  let embedded: EmbeddedDatabase | null = null;
  let ownerUrl = config.databaseUrl;
  const started = performance.now();
  if (!ownerUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      password: deriveKey(config, 'embedded-superuser').toString('hex'),
      logger,
      restartAttempts: config.embeddedPgRestartAttempts,
      ...(config.embeddedPgThrowaway ? { durability: 'throwaway' as const } : {}),
    });
    const admin = createKnex(embedded.url, 1);
    const exists = await admin.raw('select 1 from pg_database where datname = ?', [EMBEDDED_DB]);
    if (!exists.rows.length) await admin.raw(`create database ${EMBEDDED_DB}`);
    await admin.destroy();
    const url = new URL(embedded.url);
    url.pathname = `/${EMBEDDED_DB}`;
    ownerUrl = url.toString();
  }

  const postgresMs = performance.now() - started;
  const owner = createKnex(ownerUrl, 4, logger);
  try {
    if (opts.migrate) {
      const applied = await migrateLatest(owner);
      if (applied.length) logger.info({ applied }, 'database migrated');
      await ensureAppRole(owner, appRolePassword(config));
    }
  } catch (err) {
    await owner.destroy();
    await embedded?.stop();
    throw err;
  }
  const migrationsMs = performance.now() - started - postgresMs;
  const appUrl = config.databaseAppUrl ?? appUrlFrom(ownerUrl, appRolePassword(config));
  const app = createKnex(appUrl, config.databasePoolMax, logger);
  sharePool(app, {
    perWorkspace: config.databasePoolMax - Math.min(config.databasePoolReserve, config.databasePoolMax - 1),
    queueMs: config.databaseWorkspaceQueueSeconds * 1000,
  });
  checkNestedAcquisition(app, config.databaseNestedAcquireCheck, (err) =>
    logger.warn({ err }, 'a pooled connection was asked for while one is held'),
  );
  pairForPasswordHashes(app, owner);
  return {
    owner,
    app,
    ownerUrl,
    appUrl,
    embedded,
    startup: { postgresMs, migrationsMs },
    async destroy() {
      await Promise.all([app.destroy(), owner.destroy()]);
      await embedded?.stop();
    },
  };
}
