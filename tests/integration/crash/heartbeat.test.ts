import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '../../../core/src/db/connections.ts';
import {
  DEFAULT_HEARTBEAT_SECONDS,
  DEFAULT_SUPERVISE_INTERVAL_SECONDS,
  startJobSystem,
  takeoverBoundSeconds,
  type JobSystem,
} from '../../../core/src/jobs/queue.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { createTestDatabase } from '../../support/database.ts';
import { waitFor } from './app-process.ts';

describe('job heartbeats', () => {
  let knex: Knex;
  let jobs: JobSystem;

  beforeAll(async () => {
    const url = await createTestDatabase();
    knex = createKnex(url, 2);
    jobs = await startJobSystem({
      connectionString: url,
      logger: createLogger('silent'),
      superviseIntervalSeconds: 1,
      pollingIntervalSeconds: 0.5,
      heartbeatSeconds: 10,
    });
  });
  afterAll(async () => {
    await jobs?.stop({ graceful: false });
    await knex?.destroy();
  });

  it("takes over a dead worker's job within about a minute with the default settings", () => {
    // The default retry delay (5 s) and polling interval (1 s) of Fieldbook's queues.
    expect(
      takeoverBoundSeconds({
        heartbeatSeconds: DEFAULT_HEARTBEAT_SECONDS,
        superviseIntervalSeconds: DEFAULT_SUPERVISE_INTERVAL_SECONDS,
        retryDelaySeconds: 5,
        pollingIntervalSeconds: 1,
      }),
    ).toBeLessThanOrEqual(60);
  });

  it('leaves a live worker its job while it runs longer than the heartbeat', { timeout: 60_000 }, async () => {
    const queue = 'test.long-running';
    let runs = 0;
    const definition = {
      queue,
      settings: { retryLimit: 2, retryDelaySeconds: 1 },
      async handler() {
        runs += 1;
        // Work that outlasts the 10 s heartbeat: only the beats sent meanwhile keep the job here.
        await new Promise((r) => setTimeout(r, 14_000));
      },
    };
    await jobs.register([definition]);
    const id = (await jobs.queue.send(queue, {}))!;
    await jobs.work([definition]);
    const job = await waitFor(
      'the job to finish',
      async () => {
        const j = await jobs.boss.getJobById(queue, id);
        return j?.state === 'completed' || j?.state === 'failed' ? j : undefined;
      },
      45_000,
    );
    expect(job.state).toBe('completed');
    expect(job.retryCount).toBe(0);
    expect(runs).toBe(1);
    const { rows } = await knex.raw('select heartbeat_seconds from pgboss.queue where name = ?', [queue]);
    expect(rows[0].heartbeat_seconds).toBe(10);
  });
});
