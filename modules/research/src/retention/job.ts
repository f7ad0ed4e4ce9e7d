import type { JobDefinition, ModuleContext } from '@fieldbook/core';
import { DATA_RETENTION_QUEUE, applyDataRetention } from './apply.ts';

export const DATA_RETENTION_SWEEP_QUEUE = 'research.data-retention.sweep';
/** Every day at 03:00 UTC. */
export const DATA_RETENTION_CRON = '0 3 * * *';

export interface DataRetentionJob {
  workspaceId: string;
}

type Clock = () => Date;

/**
 * The daily sweep: queues one retention run per workspace, so a large workspace never holds up
 * the others and a failure is retried for that workspace alone. Every workspace gets a run,
 * because the 30-day trash rule applies whether or not a retention period is set.
 */
export function dataRetentionSweepJob(ctx: ModuleContext): JobDefinition<Record<string, never>> {
  return {
    queue: DATA_RETENTION_SWEEP_QUEUE,
    schedule: { cron: DATA_RETENTION_CRON, tz: 'UTC' },
    settings: { retryLimit: 3, retryDelaySeconds: 60 },
    async handler() {
      // The workspace registry is not tenant data: it is read before any workspace scope exists.
      const rows = (await ctx.db.app('workspaces').select('id')) as Array<{ id: string }>;
      await ctx.jobs.insert<DataRetentionJob>(
        DATA_RETENTION_QUEUE,
        rows.map((r) => ({ workspaceId: r.id })),
      );
    },
  };
}

/** One workspace's run (see policy.ts for the rules). `now` is injectable so tests control the clock. */
export function dataRetentionJob(
  ctx: Pick<ModuleContext, 'db'>,
  now: Clock = () => new Date(),
): JobDefinition<DataRetentionJob> {
  return {
    queue: DATA_RETENTION_QUEUE,
    settings: { retryLimit: 5, retryDelaySeconds: 60, expireInSeconds: 30 * 60 },
    async handler(job) {
      await applyDataRetention(ctx.db.app, job.data.workspaceId, now());
    },
  };
}
