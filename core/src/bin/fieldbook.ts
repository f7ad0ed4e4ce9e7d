import { loadConfig } from '../config.ts';
import { discoverModules } from '../kernel/discover.ts';
import { createLogger } from '../logger.ts';
import { createFieldbook, type ProcessRole } from '../server.ts';

/**
 * `npm start` runs web and workers in one process on the embedded database.
 * `npm start -- --role=web` or `--role=worker` runs them apart; `--migrate-only` migrates and exits.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const roleArg = args.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? 'all';
  if (!['web', 'worker', 'all'].includes(roleArg)) throw new Error(`--role must be web, worker or all (got "${roleArg}")`);
  const role = roleArg as ProcessRole;
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const started = performance.now();
  const fieldbook = await createFieldbook({ config, logger, role, modules: await discoverModules(config.projectRoot) });
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
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (role === 'worker') {
    logger.info({ ms: Math.round(performance.now() - started) }, 'Fieldbook worker running');
    return;
  }
  const url = await fieldbook.listen();
  logger.info({ ms: Math.round(performance.now() - started), role }, `Fieldbook is running at ${url}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
