import type { Knex } from 'knex';
import type { JobDefinition, JobQueue } from '@fieldbook/core';
import { SEARCH_RESULT_TYPES, type SearchResultType } from '../../filters/index.ts';
import { reindexFailed, reindexFinished, reindexProgress, reindexStarted } from '../../reindex/status.ts';
import type { SearchDocumentRef } from '../engine.ts';
import type { TypesenseEngine } from './engine.ts';
import { drainWorkspace, workspacesWithChanges } from './outbox.ts';

export const INDEX_QUEUE = 'search.index';
export const REINDEX_QUEUE = 'search.reindex';
export const CHANGES_QUEUE = 'search.changes';

export interface IndexJob {
  workspaceId: string;
  type: SearchResultType;
  id: string;
}

export interface ReindexJob {
  workspaceId: string;
}

/** Drains one workspace's outbox, or (without a workspace: the periodic sweep) every workspace's. */
export interface ChangesJob {
  workspaceId?: string;
}

interface Log {
  info(obj: object, msg?: string): void;
}

const isIndexJob = (data: unknown): data is IndexJob => {
  const d = data as Partial<IndexJob> | null;
  return (
    typeof d?.workspaceId === 'string' &&
    typeof d.id === 'string' &&
    SEARCH_RESULT_TYPES.includes(d.type as SearchResultType)
  );
};

/**
 * The jobs that keep the Typesense index in step with PostgreSQL. `search.changes` drains the
 * outbox the research tables' triggers fill (one workspace when woken by their notification, every
 * workspace with pending rows on its minutely sweep); `search.index` re-reads one item and upserts
 * or deletes its document, so it is idempotent and needs no ordering; `search.reindex` rebuilds a
 * workspace's whole index and records its progress. `jobs`, when given, queues the next drain of a
 * workspace whose backlog outlasted one run (an import).
 */
export function typesenseJobs(engine: TypesenseEngine, db: Knex, logger: Log, jobs?: JobQueue): JobDefinition[] {
  const index: JobDefinition<IndexJob> = {
    queue: INDEX_QUEUE,
    settings: { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 120 },
    // Many small jobs arrive together after an import; fetch them in bursts.
    batchSize: 50,
    async handler(job) {
      if (!isIndexJob(job.data)) return;
      const refs: SearchDocumentRef[] = [{ type: job.data.type, id: job.data.id }];
      await engine.sync(job.data.workspaceId, refs);
    },
  };
  const reindex: JobDefinition<ReindexJob> = {
    queue: REINDEX_QUEUE,
    settings: { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 3 * 60 * 60 },
    async handler(job) {
      const { workspaceId } = job.data;
      if (typeof workspaceId !== 'string') return;
      await reindexStarted(db, workspaceId);
      let reported = 0;
      // Progress is written in order, one write at a time, so the bar never steps back.
      let saving: Promise<void> = Promise.resolve();
      try {
        const result = await engine.reindex(workspaceId, (p) => {
          // A line every few thousand documents: enough to follow a long run in the log.
          if (p.done - reported >= 5000 || p.done === p.total) {
            reported = p.done;
            logger.info({ workspaceId, done: p.done, total: p.total }, 'search reindex progress');
          }
          // The progress bar polls this row; a write per batch is a small share of the batch's work.
          saving = saving.then(() => reindexProgress(db, workspaceId, p)).catch(() => undefined);
        });
        await saving;
        await reindexFinished(db, workspaceId, result);
        logger.info({ workspaceId, ...result }, 'search reindex finished');
      } catch (err) {
        await reindexFailed(db, workspaceId, err instanceof Error ? err.message : String(err));
        throw err;
      }
    },
  };
  const changes: JobDefinition<ChangesJob> = {
    queue: CHANGES_QUEUE,
    settings: { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 15 * 60 },
    batchSize: 20,
    // Triggers wake the drain at once (see kickChanges); the sweep catches what a lost wake-up missed.
    schedule: { cron: '* * * * *' },
    async handler(job) {
      const workspaceIds =
        typeof job.data?.workspaceId === 'string' ? [job.data.workspaceId] : await workspacesWithChanges(db);
      for (const workspaceId of workspaceIds) {
        const { more } = await drainWorkspace(engine, db, workspaceId);
        if (more && jobs) await queueChanges(jobs, workspaceId);
      }
    },
  };
  return [index as JobDefinition, reindex as JobDefinition, changes as JobDefinition];
}

/** Queues the index update of changed items (inside the change's transaction when given). */
export async function queueIndex(
  jobs: JobQueue,
  items: readonly IndexJob[],
  trx?: Parameters<JobQueue['insert']>[2],
): Promise<void> {
  await jobs.insert(INDEX_QUEUE, items, trx);
}

/** Queues a full rebuild of a workspace's index (inside the request's transaction when given). */
export async function queueReindex(
  jobs: JobQueue,
  workspaceId: string,
  trx?: Knex.Transaction,
): Promise<string | null> {
  return jobs.send(REINDEX_QUEUE, { workspaceId }, { singletonKey: `reindex:${workspaceId}`, ...(trx ? { trx } : {}) });
}

/** Wakes the drain of a workspace's outbox (or the sweep of all, without one). */
export async function queueChanges(jobs: JobQueue, workspaceId?: string): Promise<void> {
  await jobs.send(
    CHANGES_QUEUE,
    workspaceId === undefined ? {} : { workspaceId },
    workspaceId === undefined ? {} : { singletonKey: `changes:${workspaceId}` },
  );
}
