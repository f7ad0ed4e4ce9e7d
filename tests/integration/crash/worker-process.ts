/**
 * A Fieldbook job worker (`--role=worker`, the research module and the crash relay plugin) run as
 * a process of its own, so a test can kill it for real (SIGKILL) in the middle of a job.
 * Environment: DATABASE_URL (owner), SECRET_KEY, HEARTBEAT_SECONDS. Prints `ready` once its
 * workers poll.
 */
import { loadConfig } from '../../../core/src/config.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { createFieldbook } from '../../../core/src/server.ts';
import research from '../../../modules/research/src/index.ts';
import { RELAY_SECRET, relayPlugin } from './relay-plugin.ts';

const config = loadConfig({
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  DATABASE_URL: process.env.DATABASE_URL,
  SECRET_KEY: process.env.SECRET_KEY,
  CRASH_RELAY_SECRET: RELAY_SECRET,
});
await createFieldbook({
  config,
  logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  role: 'worker',
  modules: [research],
  migrate: false,
  discoverPlugins: false,
  plugins: [relayPlugin],
  jobs: {
    superviseIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
    heartbeatSeconds: Number(process.env.HEARTBEAT_SECONDS),
  },
});
process.stdout.write('ready\n');
