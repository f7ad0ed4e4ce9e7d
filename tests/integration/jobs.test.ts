import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '../../core/src/db/connections.ts';
import { createEventBus, subscriberQueue, type DomainEvent } from '../../core/src/jobs/events.ts';
import type { Foreground } from '../../core/src/jobs/foreground.ts';
import { startJobSystem, type JobSystem } from '../../core/src/jobs/queue.ts';
import { createLogger } from '../../core/src/logger.ts';
import { createTestDatabase } from '../support/database.ts';
import { createEffectTables, effectJob, type HangAt } from '../support/job-effects.ts';

const root = join(import.meta.dirname, '..', '..');
const EXPIRE_SECONDS = 2;

/** Polls until `check` returns something other than undefined, or fails after `ms`. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('jobs', () => {
  let url: string;
  let knex: Knex;
  let jobs: JobSystem;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    url = await createTestDatabase();
    knex = createKnex(url, 4);
    await createEffectTables(knex);
    jobs = await startJobSystem({
      connectionString: url,
      logger: createLogger('silent'),
      superviseIntervalSeconds: 1,
      pollingIntervalSeconds: 0.5,
    });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await jobs?.stop({ graceful: false });
    await knex?.destroy();
  });

  /** Starts the worker script as a process of its own and resolves once it polls the queue. */
  function spawnWorker(queue: string, hangAt: HangAt): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests/support/job-worker.ts')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, QUEUE: queue, HANG_AT: hangAt, EXPIRE_SECONDS: String(EXPIRE_SECONDS) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) resolve(child);
      });
      child.on('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
    });
  }

  function kill(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  const starts = (jobId: string) => knex('job_test_starts').where({ job_id: jobId }).orderBy('id');
  const effects = (jobId: string) => knex('job_test_effects').where({ job_id: jobId });

  for (const hangAt of ['after-effect', 'inside-effect'] as const) {
    const when = hangAt === 'after-effect' ? 'after its effect committed' : 'inside its effect';
    it(`reruns a job whose worker was killed ${when}, applying the effect exactly once`, async () => {
      const queue = `test.crash-${hangAt}`;
      const definition = effectJob({ knex, queue, expireInSeconds: EXPIRE_SECONDS, hangAt: 'never' });
      await jobs.register([definition]);
      const jobId = (await jobs.queue.send(queue, { label: hangAt }))!;
      expect(jobId).toBeTruthy();

      const doomed = await spawnWorker(queue, hangAt);
      const [first] = await waitFor('the first attempt to start', async () => {
        const rows = await starts(jobId);
        return rows.length ? rows : undefined;
      });
      expect(first.pid).toBe(doomed.pid);
      // Kill it only once it stands where it hangs: effect committed, or written but uncommitted.
      await waitFor('the worker to reach its hang', async () => {
        if (hangAt === 'after-effect') return (await effects(jobId)).length ? true : undefined;
        const { rows } = await knex.raw(
          `select 1 from pg_stat_activity where state = 'idle in transaction' and query ilike 'insert into "job_test_effects"%'`,
        );
        return rows.length ? true : undefined;
      });
      await kill(doomed);
      expect((await effects(jobId)).length).toBe(hangAt === 'after-effect' ? 1 : 0);

      // This process takes over: the job must expire, be retried and complete here.
      await jobs.work([definition]);
      const job = await waitFor('the job to complete', async () => {
        const j = await jobs.boss.getJobById(queue, jobId);
        return j?.state === 'completed' ? j : undefined;
      });
      expect(job.state).toBe('completed');
      const attempts = await starts(jobId);
      expect(attempts.length).toBe(2);
      expect(attempts[1].pid).toBe(process.pid);
      expect(attempts[1].retry_count).toBeGreaterThanOrEqual(1);
      const applied = await effects(jobId);
      expect(applied).toHaveLength(1);
      expect(applied[0].label).toBe(hangAt);
      expect(
        await knex('job_effects')
          .where({ key: `test-effect:${jobId}` })
          .count({ n: '*' }),
      ).toEqual([{ n: 1 }]);
    });
  }

  it('moves a job that fails past its retry limit to the dead-letter queue', async () => {
    const queue = 'test.always-fails';
    let attempts = 0;
    const definition = {
      queue,
      settings: { retryLimit: 2, retryDelaySeconds: 1 },
      async handler() {
        attempts += 1;
        throw new Error('the provider is down');
      },
    };
    await jobs.register([definition]);
    const jobId = (await jobs.queue.send(queue, { importId: 'imp-1' }))!;
    await jobs.work([definition]);

    const job = await waitFor('the job to fail for good', async () => {
      const j = await jobs.boss.getJobById(queue, jobId);
      return j?.state === 'failed' ? j : undefined;
    });
    expect(attempts).toBe(3); // the first run and two retries
    expect(job.retryCount).toBe(2);
    const [dead] = await waitFor('the dead letter', async () => {
      const found = await jobs.boss.fetch<{ importId: string }>(`${queue}.dead`);
      return found.length ? found : undefined;
    });
    expect(dead!.data).toEqual({ importId: 'imp-1' });
  });

  it('tells a queue that asks when a job exhausted its retries, once, with its data', async () => {
    const queue = 'test.gives-up';
    const exhausted: Array<{ data: unknown }> = [];
    const definition = {
      queue,
      settings: { retryLimit: 1, retryDelaySeconds: 1 },
      async handler() {
        throw new Error('the worker keeps dying');
      },
      async exhausted(job: { data: unknown }) {
        exhausted.push({ data: job.data });
      },
    };
    await jobs.register([definition]);
    await jobs.queue.send(queue, { runId: 'run-1' });
    await jobs.work([definition]);
    await waitFor('the queue to hear the job gave up', async () => (exhausted.length ? true : undefined));
    expect(exhausted).toEqual([{ data: { runId: 'run-1' } }]);
  });

  it('in a batch, fails only the job that threw: the others complete once, it is retried', async () => {
    const queue = 'test.batch';
    const runs = new Map<number, number>();
    const definition = {
      queue,
      batchSize: 5,
      settings: { retryLimit: 1, retryDelaySeconds: 1 },
      async handler(job: { data: unknown }) {
        const n = (job.data as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        if (n === 3 && runs.get(n) === 1) throw new Error('a hiccup');
      },
    };
    await jobs.register([definition]);
    await jobs.queue.insert(
      queue,
      [1, 2, 3, 4, 5].map((n) => ({ n })),
    );
    await jobs.work([definition]);
    await waitFor('every job to complete', async () => {
      const { rows } = await knex.raw(
        `select count(*)::int as n from pgboss.job where name = ? and state = 'completed'`,
        [queue],
      );
      return rows[0].n === 5 ? true : undefined;
    });
    expect([...runs.entries()].sort(([a], [b]) => a - b)).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 1],
      [5, 1],
    ]);
  });

  it('hands a batch to handleBatch whole, and fails only the jobs it answers an error for', async () => {
    const queue = 'test.batch-whole';
    const batches: number[][] = [];
    const definition = {
      queue,
      batchSize: 5,
      settings: { retryLimit: 1, retryDelaySeconds: 1 },
      async handler() {
        throw new Error('handleBatch handles this queue');
      },
      async handleBatch(batch: ReadonlyArray<{ data: unknown; retryCount: number }>) {
        batches.push(batch.map((j) => (j.data as { n: number }).n).sort((a, b) => a - b));
        return batch.map((j) =>
          (j.data as { n: number }).n === 2 && j.retryCount === 0 ? new Error('a hiccup') : null,
        );
      },
    };
    await jobs.register([definition]);
    await jobs.queue.insert(
      queue,
      [1, 2, 3, 4, 5].map((n) => ({ n })),
    );
    await jobs.work([definition]);
    await waitFor('every job to complete', async () => {
      const { rows } = await knex.raw(
        `select count(*)::int as n from pgboss.job where name = ? and state = 'completed'`,
        [queue],
      );
      return rows[0].n === 5 ? true : undefined;
    });
    // All five came in one call; only the one answered with an error came again, alone.
    expect(batches).toEqual([[1, 2, 3, 4, 5], [2]]);
  });

  it('delays jobs inserted in bulk as it delays one sent alone', async () => {
    const queue = 'test.bulk-delay';
    await jobs.register([{ queue, async handler() {} }]);
    await jobs.queue.insert(queue, [{ n: 1 }, { n: 2 }], { startAfterSeconds: 30 });
    await jobs.queue.send(queue, { n: 3 }, { startAfterSeconds: 30 });
    const { rows } = await knex.raw(
      `select (data->>'n')::int as n, round(extract(epoch from start_after - created_on))::int as delay from pgboss.job where name = ? order by 1`,
      [queue],
    );
    expect(rows).toEqual([
      { n: 1, delay: 30 },
      { n: 2, delay: 30 },
      { n: 3, delay: 30 },
    ]);
  });

  it('holds its batches while the process it shares is busy with a burst of requests, and runs them once the burst ends', async () => {
    // A burst that lasts until the test ends it (the rate that makes one is foreground.test.ts's).
    let endBurst!: () => void;
    const ended = new Promise<void>((resolve) => (endBurst = resolve));
    let endedAt = 0;
    const foreground: Foreground = { arrived() {}, busy: () => endedAt === 0, yieldTo: () => ended };
    const beside = await startJobSystem({
      connectionString: url,
      logger: createLogger('silent'),
      pollingIntervalSeconds: 0.5,
      foreground,
    });
    try {
      const queue = 'test.foreground';
      const handled: number[] = [];
      const definition = {
        queue,
        async handler() {
          handled.push(Date.now());
        },
      };
      await beside.register([definition]);
      await beside.queue.insert(queue, [{ n: 1 }]);
      await beside.work([definition]);
      // Fetched at the first poll, but held while the burst goes on.
      await waitFor('the job to be fetched', async () => {
        const { rows } = await knex.raw(
          `select count(*)::int as n from pgboss.job where name = ? and state = 'active'`,
          [queue],
        );
        return rows[0].n === 1 ? true : undefined;
      });
      await new Promise((r) => setTimeout(r, 1000));
      expect(handled).toEqual([]);
      endedAt = Date.now();
      endBurst();
      await waitFor('the job to run', async () => (handled.length ? true : undefined));
      expect(handled[0]).toBeGreaterThanOrEqual(endedAt);
    } finally {
      endBurst();
      await beside.stop({ graceful: false });
    }
  });

  it('delivers an event published in a committed transaction and never one from a rolled-back one', async () => {
    const event = 'test:note-saved';
    const queue = subscriberQueue(event, 'jobs-test');
    const received: DomainEvent[] = [];
    const definition = {
      queue,
      async handler(job: { data: unknown }) {
        received.push(job.data as DomainEvent);
      },
    };
    await jobs.register([definition]);
    await jobs.boss.subscribe(event, queue);
    const bus = createEventBus(jobs.boss);

    await expect(
      knex.transaction(async (trx) => {
        await bus.publish(event, null, { noteId: 'rolled-back' }, trx);
        throw new Error('the note could not be saved');
      }),
    ).rejects.toThrow('the note could not be saved');
    await knex.transaction(async (trx) => {
      await bus.publish(event, null, { noteId: 'committed' }, trx);
    });
    await jobs.work([definition]);

    await waitFor('the committed event', async () => (received.length ? true : undefined));
    // Leave time for a wrongly queued event to arrive too.
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.map((e) => e.payload)).toEqual([{ noteId: 'committed' }]);
    expect(received[0]).toMatchObject({ event, workspaceId: null });
    const { rows } = await knex.raw(`select count(*)::int as n from pgboss.job where name = ?`, [queue]);
    expect(rows[0].n).toBe(1);
  });
});
