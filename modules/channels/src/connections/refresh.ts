import { withTenant, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import type { DatasetRow } from '../datasets/datasets.ts';
import { activeRun, startRun } from './connections.ts';

export const CHANNEL_REFRESH_QUEUE = 'channels.sources.refresh';

/** Connections refreshed per sweep; the rest are due still and go in the next minute's. */
const SWEEP_BATCH = 200;

/**
 * Starts a run of every connection whose refresh is due, once: the sweep moves `next_sync_at` on
 * in the transaction that queues the run, so a second sweep (another worker, a retried job) finds
 * nothing left to do. A connection already running is only moved on.
 */
export async function sweepRefreshes(ctx: ModuleContext): Promise<number> {
  // Due connections of every workspace: the owner connection reads past row-level security, and
  // each run is then started inside its own workspace.
  const due = (await ctx.db
    .owner('channel_datasets')
    .whereNotNull('plugin_id')
    .whereNotNull('refresh_minutes')
    .where('next_sync_at', '<=', ctx.db.owner.fn.now())
    .orderBy('next_sync_at')
    .limit(SWEEP_BATCH)
    .select('id', 'workspace_id', 'created_by')) as Array<Pick<DatasetRow, 'id' | 'workspace_id' | 'created_by'>>;
  let started = 0;
  for (const row of due) {
    await withTenant(ctx.db.app, { workspaceId: row.workspace_id }, async (trx) => {
      const dataset = (await trx('channel_datasets')
        .where({ id: row.id })
        .where('next_sync_at', '<=', trx.fn.now())
        .forUpdate()
        .skipLocked()
        .first()) as DatasetRow | undefined;
      if (!dataset || dataset.refresh_minutes == null) return;
      await trx('channel_datasets')
        .where({ id: dataset.id })
        .update({ next_sync_at: trx.raw(`now() + make_interval(mins => ?)`, [dataset.refresh_minutes]) });
      // The person who connected it acts for the refresh; without them it waits for someone's "sync now".
      if (!dataset.created_by || (await activeRun(trx, dataset.id))) return;
      await startRun(trx, ctx.jobs, dataset, dataset.created_by, 'SCHEDULED');
      started++;
    });
  }
  return started;
}

export function channelRefreshJob(ctx: ModuleContext): JobDefinition {
  return {
    queue: CHANNEL_REFRESH_QUEUE,
    settings: { retryLimit: 0, expireInSeconds: 5 * 60 },
    schedule: { cron: '* * * * *' },
    handler: async () => {
      await sweepRefreshes(ctx);
    },
  };
}
