import type { Knex } from 'knex';
import { PgBoss, fromKnex } from 'pg-boss';
import { createOutageLog, isDatabaseUnavailable, type OutageLog } from '../db/unavailable.ts';
import type { Logger } from '../logger.ts';
import type { Foreground } from './foreground.ts';

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
  /**
   * Seconds a job may run in all before it counts as lost and is retried (default 15 minutes):
   * the bound on a job that hangs. A worker that dies is found sooner, by its heartbeat.
   */
  expireInSeconds?: number;
  /**
   * Seconds without a heartbeat after which a running job counts as lost (its worker died) and is
   * retried elsewhere; the worker beats every half of it while the handler runs. At least 10;
   * default the job system's `heartbeatSeconds`.
   */
  heartbeatSeconds?: number;
  /** Jobs that exhaust their retries move to `<queue>.dead`, where people can inspect them. */
  deadLetter?: boolean;
  /**
   * Wake this queue's workers the moment a job is queued (PostgreSQL NOTIFY, sent on commit)
   * instead of at their next poll: for work a person waits on, such as a webhook delivery
   * becoming a note. Polling stays on as the backstop.
   */
  notify?: boolean;
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
  /**
   * Handles a fetched batch as a whole instead of job by job (`handler` then serves only where
   * a single job is run), so the jobs can share reads and writes. Answers each job's outcome in
   * order: null when done, or the error that fails it alone (retried as its queue says).
   */
  handleBatch?(jobs: ReadonlyArray<Job<T>>): Promise<ReadonlyArray<unknown>>;
  /**
   * Called once a job has exhausted its retries (it kept failing, or its worker died each time),
   * from its dead-letter queue: where a run's own row must end as failed rather than stay
   * "running" with no worker behind it. Idempotent, like every handler; needs `deadLetter`.
   */
  exhausted?(job: Job<T>): Promise<void>;
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
  insert<T extends object>(
    queue: string,
    items: readonly T[],
    options?: Pick<SendOptions, 'trx' | 'startAfterSeconds'>,
  ): Promise<void>;
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
  /** Seconds between the checks that retry lost jobs (default 15); low in tests. */
  superviseIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  /** Default heartbeat of every queue (see QueueSettings.heartbeatSeconds; default 20). */
  heartbeatSeconds?: number;
  /** Where "the database is away" goes, shared with the rest of the process so it is said once. */
  outage?: OutageLog;
  /** Requests served by the same process: each batch of jobs makes way for a burst of them first. */
  foreground?: Foreground;
}

/** Heartbeat of a queue that sets none: a dead worker's job is failed this long after its last beat. */
export const DEFAULT_HEARTBEAT_SECONDS = 20;
/** How often lost jobs are looked for; pg-boss's own default (60 s) would add up to a minute. */
export const DEFAULT_SUPERVISE_INTERVAL_SECONDS = 15;

/**
 * The longest a job of a worker that died waits before another worker starts it again: its
 * heartbeat lapses, the next supervision pass fails it, and its first retry waits its retry delay
 * (at most twice the base with backoff's jitter), then one polling interval.
 */
export function takeoverBoundSeconds(o: {
  heartbeatSeconds: number;
  superviseIntervalSeconds: number;
  retryDelaySeconds: number;
  pollingIntervalSeconds: number;
}): number {
  return o.heartbeatSeconds + o.superviseIntervalSeconds + 2 * o.retryDelaySeconds + o.pollingIntervalSeconds;
}

/** The PostgreSQL schema of the job queue. */
export const JOB_SCHEMA = 'pgboss';

export async function startJobSystem(opts: JobSystemOptions): Promise<JobSystem> {
  const superviseIntervalSeconds = opts.superviseIntervalSeconds ?? DEFAULT_SUPERVISE_INTERVAL_SECONDS;
  const heartbeatSeconds = opts.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS;
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    schema: JOB_SCHEMA,
    application_name: 'fieldbook-jobs',
    max: 5,
    // pg-boss fails lost jobs (lapsed heartbeat, expiry) only on its monitor passes, whatever the
    // supervise interval: both must be short for a dead worker's job to be taken over soon.
    superviseIntervalSeconds,
    monitorIntervalSeconds: superviseIntervalSeconds,
    // One listening connection; only queues created with `notify` are woken through it.
    useListenNotify: true,
  });
  let stopping = false;
  const outage = opts.outage ?? createOutageLog(opts.logger);
  boss.on('error', (err: unknown) => {
    // Stopping closes connections under pollers that are still finishing: expected, not news.
    if (stopping) opts.logger.debug({ err }, 'job system error while stopping');
    else if (isDatabaseUnavailable(err)) outage('jobs', err);
    else opts.logger.error({ err }, 'job system error');
  });
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
        // A number of seconds is a delay to pg-boss's insert (an interval), as to send.
        items.map((data) => ({ data, ...(o.startAfterSeconds ? { startAfter: o.startAfterSeconds } : {}) })),
        o.trx ? { db: fromKnex(o.trx) } : undefined,
      );
    },
  };

  return {
    boss,
    queue,
    async register(definitions) {
      // One read of every queue concerned, and writes only where something is missing or
      // differs: a warm start otherwise spent three round trips per queue.
      const names = definitions.flatMap((d) => [d.queue, `${d.queue}.dead`]);
      const existing = new Map((await boss.getQueues(names)).map((q) => [q.name, q]));
      for (const d of definitions) {
        const s = d.settings ?? {};
        const deadLetter = s.deadLetter === false ? undefined : `${d.queue}.dead`;
        if (deadLetter && !existing.has(deadLetter)) await boss.createQueue(deadLetter);
        const options = {
          retryLimit: s.retryLimit ?? 3,
          retryDelay: s.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: s.expireInSeconds ?? 900,
          heartbeatSeconds: s.heartbeatSeconds ?? heartbeatSeconds,
          notify: s.notify ?? false,
          ...(deadLetter ? { deadLetter } : {}),
        };
        const current = existing.get(d.queue);
        if (!current) await boss.createQueue(d.queue, options);
        // pg-boss's types leave heartbeatSeconds out of updateQueue, but its statement sets it;
        // queues created before heartbeats existed get theirs this way.
        else if (!hasSettings(current, options))
          await boss.updateQueue(d.queue, options as Parameters<PgBoss['updateQueue']>[1]);
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
          {
            batchSize: d.batchSize ?? 1,
            pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
            // NOTIFY wakes a `notify` queue at once; polling stays at its usual pace, so a notice
            // a busy worker did not act on costs no more than before.
            notifyPollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
            burstWhenBatchFull: true,
            localConcurrency: d.concurrency ?? 1,
          },
          async (jobs) => {
            await opts.foreground?.yieldTo();
            if (d.handleBatch) {
              const batch = jobs.map((j) => ({
                id: j.id,
                queue: d.queue,
                data: j.data,
                retryCount: (j as { retryCount?: number }).retryCount ?? 0,
              }));
              const outcomes = await d.handleBatch(batch);
              for (const [i, err] of outcomes.entries()) {
                if (err === null || err === undefined) continue;
                opts.logger.warn({ err, queue: d.queue, job: batch[i]!.id }, 'job failed; it will be retried');
                await boss.fail(d.queue, batch[i]!.id, { message: err instanceof Error ? err.message : String(err) });
              }
              return;
            }
            for (const j of jobs) {
              const job = {
                id: j.id,
                queue: d.queue,
                data: j.data,
                retryCount: (j as { retryCount?: number }).retryCount ?? 0,
              };
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
        const exhausted = d.exhausted;
        if (exhausted && d.settings?.deadLetter !== false)
          await boss.work<unknown>(
            `${d.queue}.dead`,
            { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 },
            async ([j]) => {
              if (j)
                await exhausted({
                  id: j.id,
                  queue: d.queue,
                  data: j.data,
                  retryCount: (j as { retryCount?: number }).retryCount ?? 0,
                });
            },
          );
      }
    },
    stop: (o = {}) => {
      stopping = true;
      return boss.stop({ graceful: o.graceful ?? true, timeout: 10_000 });
    },
  };
}

/** True when a stored queue already has every one of these settings. */
function hasSettings(queue: object, settings: Record<string, unknown>): boolean {
  const stored = queue as Record<string, unknown>;
  return Object.entries(settings).every(([key, value]) => (stored[key] ?? undefined) === value);
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
  // The record takes the transaction's workspace (a column default); the key is unique within it.
  const { rows } = await trx.raw<{ rows: unknown[] }>(
    'insert into job_effects (key, queue) values (?, ?) on conflict do nothing returning key',
    [key, queue],
  );
  if (!rows.length) return { applied: false };
  await effect();
  return { applied: true };
}
