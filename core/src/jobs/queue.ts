import type { Knex } from 'knex';
import { PgBoss, fromKnex } from 'pg-boss';
import type { Logger } from '../logger.ts';

/** One job as its handler sees it. Handlers must be idempotent: delivery is at least once. */
export interface Job<T> {
  id: string;
  queue: string;
  data: T;
  retryCount: number;
}

export interface QueueSettings {
  /** Retries after the first failure (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time (default 5). */
  retryDelaySeconds?: number;
  /** Seconds a job may run before it counts as lost and is retried (default 15 minutes). */
  expireInSeconds?: number;
  /** Jobs that exhaust their retries move to `<queue>.dead`, where people can inspect them. */
  deadLetter?: boolean;
}

export interface JobDefinition<T = unknown> {
  queue: string;
  settings?: QueueSettings;
  /** Jobs fetched per poll; handled one after another. */
  batchSize?: number;
  /** Workers for this queue in each process, each fetching on its own (default 1). */
  concurrency?: number;
  /** Queues a job with empty data on a cron schedule, e.g. `0 3 * * *` for daily at 03:00. */
  schedule?: JobSchedule;
  handler(job: Job<T>): Promise<void>;
}

export interface JobSchedule {
  cron: string;
  /** Time zone the cron expression is read in (default UTC). */
  tz?: string;
}

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  trx?: Knex.Transaction;
  singletonKey?: string;
  startAfterSeconds?: number;
}

export interface JobQueue {
  send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Bulk enqueue in one statement. */
  insert<T extends object>(queue: string, items: readonly T[], options?: Pick<SendOptions, 'trx'>): Promise<void>;
}

export interface JobSystem {
  boss: PgBoss;
  queue: JobQueue;
  /** Creates queues (and their dead-letter queues); idempotent. */
  register(definitions: readonly JobDefinition[]): Promise<void>;
  /** Starts polling for the given queues (worker role only). */
  work(definitions: readonly JobDefinition[]): Promise<void>;
  stop(options?: { graceful?: boolean }): Promise<void>;
}

export interface JobSystemOptions {
  connectionString: string;
  logger: Logger;
  /** Seconds between the checks that retry expired jobs; low in tests. */
  superviseIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
}

/** The PostgreSQL schema of the job queue. */
export const JOB_SCHEMA = 'pgboss';

export async function startJobSystem(opts: JobSystemOptions): Promise<JobSystem> {
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    schema: JOB_SCHEMA,
    application_name: 'fieldbook-jobs',
    max: 5,
    // pg-boss expires lost jobs only on its monitor passes (every 60 s by default), whatever the
    // supervise interval: both must shrink for a lost job to be retried sooner.
    ...(opts.superviseIntervalSeconds
      ? { superviseIntervalSeconds: opts.superviseIntervalSeconds, monitorIntervalSeconds: opts.superviseIntervalSeconds }
      : {}),
  });
  boss.on('error', (err: unknown) => opts.logger.error({ err }, 'job system error'));
  await boss.start();

  const queue: JobQueue = {
    send: (name, data, o = {}) =>
      boss.send(name, data, {
        ...(o.trx ? { db: fromKnex(o.trx) } : {}),
        ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}),
        ...(o.startAfterSeconds ? { startAfter: o.startAfterSeconds } : {}),
      }),
    insert: async (name, items, o = {}) => {
      if (!items.length) return;
      await boss.insert(
        name,
        items.map((data) => ({ data })),
        o.trx ? { db: fromKnex(o.trx) } : undefined,
      );
    },
  };

  return {
    boss,
    queue,
    async register(definitions) {
      for (const d of definitions) {
        const s = d.settings ?? {};
        const deadLetter = s.deadLetter === false ? undefined : `${d.queue}.dead`;
        if (deadLetter && !(await boss.getQueue(deadLetter))) await boss.createQueue(deadLetter);
        const options = {
          retryLimit: s.retryLimit ?? 3,
          retryDelay: s.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: s.expireInSeconds ?? 900,
          ...(deadLetter ? { deadLetter } : {}),
        };
        if (await boss.getQueue(d.queue)) await boss.updateQueue(d.queue, options);
        else await boss.createQueue(d.queue, options);
        // Stored in the database and upserted by name, so every process may register it; one
        // cron pass across them queues each occurrence once.
        if (d.schedule) await boss.schedule(d.queue, d.schedule.cron, {}, { tz: d.schedule.tz ?? 'UTC' });
      }
    },
    async work(definitions) {
      for (const d of definitions) {
        await boss.work<unknown>(
          d.queue,
          // While fetches come back full there is a backlog: fetch again at once instead of
          // waiting out the polling interval after every batch.
          { batchSize: d.batchSize ?? 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, burstWhenBatchFull: true, localConcurrency: d.concurrency ?? 1 },
          async (jobs) => {
            for (const j of jobs) {
              const job = { id: j.id, queue: d.queue, data: j.data, retryCount: (j as { retryCount?: number }).retryCount ?? 0 };
              if (jobs.length === 1) {
                await d.handler(job);
                continue;
              }
              // In a batch, a failure fails that job alone (retried as its queue says); the
              // others still complete when the batch returns.
              try {
                await d.handler(job);
              } catch (err) {
                opts.logger.warn({ err, queue: d.queue, job: j.id }, 'job failed; it will be retried');
                await boss.fail(d.queue, j.id, { message: err instanceof Error ? err.message : String(err) });
              }
            }
          },
        );
      }
    },
    stop: (o = {}) => boss.stop({ graceful: o.graceful ?? true, timeout: 10_000 }),
  };
}

/**
 * Applies a job's effect at most once: the effect and its record commit together, so a job
 * retried after a crash finds the record and does nothing.
 */
export async function once<T>(
  trx: Knex.Transaction,
  key: string,
  queue: string,
  effect: () => Promise<T>,
): Promise<{ applied: boolean }> {
  const inserted = await trx('job_effects').insert({ key, queue }).onConflict('key').ignore().returning('key');
  if (!inserted.length) return { applied: false };
  await effect();
  return { applied: true };
}
