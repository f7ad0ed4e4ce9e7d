import type { Knex } from 'knex';
import { AppError } from '../errors/app-error.ts';
import { KeyedSlots, SlotRefused } from '../limits/keyed-slots.ts';
import { heldOf } from './held-connections.ts';

export interface PoolShareSettings {
  /** Connections of the pool one workspace's transactions may hold at once. */
  perWorkspace: number;
  /** How long a transaction waits for its workspace's turn before the request is refused. */
  queueMs: number;
}

/** Seconds a refused request is asked to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;
export const WORKSPACE_BUSY = 'This workspace has too many requests in progress at once. Try again in a few seconds.';

const shares = new WeakMap<Knex['client'], KeyedSlots>();

/**
 * Keeps part of `db`'s pool for other workspaces: one workspace's transactions hold at most
 * `perWorkspace` connections, and its further transactions wait in its own line (not the pool's,
 * where they would be ahead of everyone else's). A flood from one workspace then slows that
 * workspace alone.
 */
export function sharePool(db: Knex, settings: PoolShareSettings): void {
  shares.set(
    db.client,
    new KeyedSlots({ concurrency: settings.perWorkspace, queue: Infinity, queueMs: settings.queueMs }),
  );
}

/** Connections of `db` the workspace's transactions hold now (0 where the pool is not shared). */
export function connectionsHeldBy(db: Knex, workspaceId: string): number {
  return shares.get(db.client)?.holders(workspaceId) ?? 0;
}

/**
 * Waits for the workspace's turn at `db`'s pool; the answer gives the turn back. Work that already
 * holds a connection of the pool for the workspace takes no second turn, so it cannot wait on itself.
 */
export async function workspaceTurn(db: Knex, workspaceId: string | null | undefined): Promise<() => void> {
  const slots = shares.get(db.client);
  if (!slots || !workspaceId || heldOf(db)?.workspaceId === workspaceId) return () => {};
  try {
    return await slots.acquire(workspaceId);
  } catch (err) {
    if (err instanceof SlotRefused)
      throw new AppError('TOO_MANY_REQUESTS', WORKSPACE_BUSY, { retryAfterSeconds: RETRY_AFTER_SECONDS });
    throw err;
  }
}
