import type { JobDefinition, JobQueue } from '@fieldbook/core';
import { SEARCH_RESULT_TYPES, type SearchResultType } from '../../filters/index.ts';
import type { SearchDocumentRef } from '../engine.ts';
import type { TypesenseEngine } from './engine.ts';

export const INDEX_QUEUE = 'search.index';
export const REINDEX_QUEUE = 'search.reindex';

export interface IndexJob {
  workspaceId: string;
  type: SearchResultType;
  id: string;
}

export interface ReindexJob {
  workspaceId: string;
}

interface Log {
  info(obj: object, msg?: string): void;
}

const isIndexJob = (data: unknown): data is IndexJob => {
  const d = data as Partial<IndexJob> | null;
  return typeof d?.workspaceId === 'string' && typeof d.id === 'string' && SEARCH_RESULT_TYPES.includes(d.type as SearchResultType);
};

/**
 * The jobs that keep the Typesense index in step with PostgreSQL. `search.index` re-reads one item
 * and upserts or deletes its document, so it is idempotent and needs no ordering: whichever run
 * comes last reads the latest state. `search.reindex` rebuilds a workspace's whole index.
 */
export function typesenseJobs(engine: TypesenseEngine, logger: Log): JobDefinition[] {
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
      let reported = 0;
      const result = await engine.reindex(workspaceId, (p) => {
        // A line every few thousand documents: enough to follow a long run in the log.
        if (p.done - reported >= 5000 || p.done === p.total) {
          reported = p.done;
          logger.info({ workspaceId, done: p.done, total: p.total }, 'search reindex progress');
        }
      });
      logger.info({ workspaceId, ...result }, 'search reindex finished');
    },
  };
  return [index as JobDefinition, reindex as JobDefinition];
}

/** Queues the index update of changed items (inside the change's transaction when given). */
export async function queueIndex(jobs: JobQueue, items: readonly IndexJob[], trx?: Parameters<JobQueue['insert']>[2]): Promise<void> {
  await jobs.insert(INDEX_QUEUE, items, trx);
}

/** Queues a full rebuild of a workspace's index; one at a time per workspace. */
export async function queueReindex(jobs: JobQueue, workspaceId: string): Promise<string | null> {
  return jobs.send(REINDEX_QUEUE, { workspaceId }, { singletonKey: `reindex:${workspaceId}` });
}
