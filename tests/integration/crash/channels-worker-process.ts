/**
 * A Fieldbook job worker with the channels module, run as a process of its own so a test can kill
 * it (SIGKILL) in the middle of an import. Environment: DATABASE_URL (owner), SECRET_KEY,
 * HEARTBEAT_SECONDS. Prints `ready` once its workers poll.
 */
import { loadConfig } from '../../../core/src/config.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { createFieldbook } from '../../../core/src/server.ts';
import channels from '../../../modules/channels/src/index.ts';
import research from '../../../modules/research/src/index.ts';

const config = loadConfig({
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  DATABASE_URL: process.env.DATABASE_URL,
  SECRET_KEY: process.env.SECRET_KEY,
});
await createFieldbook({
  config,
  logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  role: 'worker',
  modules: [research, channels],
  migrate: false,
  discoverPlugins: false,
  jobs: {
    superviseIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
    heartbeatSeconds: Number(process.env.HEARTBEAT_SECONDS),
  },
});
process.stdout.write('ready\n');
