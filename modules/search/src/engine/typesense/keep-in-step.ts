import type { ModuleContext } from '@fieldbook/core';
import { queueChanges, queueReindex } from './jobs.ts';
import { setOutbox } from './outbox.ts';

/** The invalidation topic the outbox triggers notify on, keyed by workspace id (migration 0014). */
export const CHANGES_TOPIC = 'search-changes';
/** Changes notified within this long are drained by one job. */
const KICK_DELAY_MS = 100;

type Context = Pick<ModuleContext, 'db' | 'jobs' | 'invalidations' | 'logger'>;

/**
 * Turns the search outbox on or off as this process starts, by whether Typesense is configured.
 * Every process of one installation runs with the same configuration, so they agree. Turning it
 * on after it was off queues a full reindex of every workspace: the index missed what changed
 * in between.
 */
export function switchOutbox(ctx: Context, on: boolean): Promise<void> {
  return setOutbox(ctx.db.owner, on)
    .then(async ({ turnedOn, workspaceIds }) => {
      if (!turnedOn) return;
      for (const workspaceId of workspaceIds) await queueReindex(ctx.jobs, workspaceId);
      ctx.logger.info({ workspaces: workspaceIds.length }, 'search outbox turned on; reindexing every workspace');
    })
    .catch((err: unknown) => ctx.logger.error({ err }, 'could not switch the search outbox'));
}

/**
 * Wakes the drain as soon as a change commits: the outbox triggers notify the workspace id, and
 * this queues one drain job per workspace for the notifications of a short moment. When the
 * listener reconnected (notifications may have been lost) it queues the sweep of every workspace.
 */
export function kickOnChanges(ctx: Context): void {
  const pending = new Set<string>();
  let sweep = false;
  let timer: NodeJS.Timeout | null = null;
  const flush = async () => {
    timer = null;
    const workspaceIds = [...pending];
    const all = sweep;
    pending.clear();
    sweep = false;
    try {
      if (all) await queueChanges(ctx.jobs);
      for (const workspaceId of workspaceIds) await queueChanges(ctx.jobs, workspaceId);
    } catch (err) {
      // The periodic sweep drains what this missed (for example while the process stops).
      ctx.logger.warn({ err }, 'could not queue the search outbox drain');
    }
  };
  ctx.invalidations.subscribe(CHANGES_TOPIC, (key) => {
    if (key === '*') sweep = true;
    else pending.add(key);
    if (!timer) {
      timer = setTimeout(() => void flush(), KICK_DELAY_MS);
      timer.unref();
    }
  });
}
