/**
 * A job worker run as its own process by tests/integration/jobs.test.ts, so the test can kill it
 * for real (SIGKILL) in the middle of a job. The handler writes the start of every attempt to
 * `job_test_starts`, applies its effect through `once()`, and hangs at the point HANG_AT names:
 * - `inside-effect`: the effect is written but its transaction has not committed;
 * - `after-effect`: the effect has committed but the job has not completed.
 * Environment: DATABASE_URL (owner), QUEUE, HANG_AT, EXPIRE_SECONDS.
 */
import { createKnex } from '../../core/src/db/connections.ts';
import { createLogger } from '../../core/src/logger.ts';
import { startJobSystem } from '../../core/src/jobs/queue.ts';
import { effectJob, type HangAt } from './job-effects.ts';

const url = required('DATABASE_URL');
const queue = required('QUEUE');
const hangAt = required('HANG_AT') as HangAt;
const expireInSeconds = Number(required('EXPIRE_SECONDS'));

const knex = createKnex(url, 2);
const jobs = await startJobSystem({
  connectionString: url,
  logger: createLogger('silent'),
  pollingIntervalSeconds: 0.5,
});
const definition = effectJob({ knex, queue, expireInSeconds, hangAt });
await jobs.register([definition]);
await jobs.work([definition]);
process.stdout.write('ready\n');

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
