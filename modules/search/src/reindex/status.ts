import type { Knex } from 'knex';
import { withTenant } from '@fieldbook/core';
import type { ReindexProgress } from '../engine/engine.ts';

/**
 * The latest full reindex of a workspace (table `search_reindexes`), written by the reindex job
 * as it goes and read by the progress panel. `NOT_NEEDED`: the engine reads the tables
 * themselves (PostgreSQL); `IDLE`: no reindex was asked for yet.
 */
export type ReindexState = 'NOT_NEEDED' | 'IDLE' | 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';

export interface ReindexStatus {
  engine: string;
  state: ReindexState;
  processed: number;
  total: number;
  queuedAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
}

interface Row {
  state: ReindexState;
  processed: number;
  total: number;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
}

/** A reindex in one of these states is under way: asking again changes nothing. */
export const UNDER_WAY: readonly ReindexState[] = ['QUEUED', 'RUNNING'];

export const notNeeded = (engine: string): ReindexStatus => ({
  engine,
  state: 'NOT_NEEDED',
  processed: 0,
  total: 0,
  queuedAt: null,
  startedAt: null,
  finishedAt: null,
  error: null,
});

export async function readReindex(trx: Knex.Transaction, engine: string, workspaceId: string): Promise<ReindexStatus> {
  const row = (await trx('search_reindexes').where({ workspace_id: workspaceId }).first()) as Row | undefined;
  if (!row) return { ...notNeeded(engine), state: 'IDLE' };
  return {
    engine,
    state: row.state,
    processed: row.processed,
    total: row.total,
    queuedAt: row.queued_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    error: row.error,
  };
}

/** Records a queued reindex, starting the count afresh. */
export async function reindexQueued(trx: Knex.Transaction, workspaceId: string, userId: string | null): Promise<void> {
  const row = {
    workspace_id: workspaceId,
    state: 'QUEUED',
    processed: 0,
    total: 0,
    requested_by: userId,
    queued_at: trx.fn.now(),
    started_at: null,
    finished_at: null,
    error: null,
  };
  await trx('search_reindexes').insert(row).onConflict('workspace_id').merge();
}

const write = (db: Knex, workspaceId: string, values: Record<string, unknown>) =>
  withTenant(db, { workspaceId }, async (trx) => {
    const updated = await trx('search_reindexes').where({ workspace_id: workspaceId }).update(values);
    // A reindex queued without asking through the API (the outbox turned on) has no row yet.
    if (updated === 0)
      await trx('search_reindexes')
        .insert({ workspace_id: workspaceId, ...values })
        .onConflict('workspace_id')
        .merge();
  });

export const reindexStarted = (db: Knex, workspaceId: string) =>
  write(db, workspaceId, {
    state: 'RUNNING',
    processed: 0,
    total: 0,
    started_at: db.fn.now(),
    finished_at: null,
    error: null,
  });

export const reindexProgress = (db: Knex, workspaceId: string, p: ReindexProgress) =>
  withTenant(db, { workspaceId }, async (trx) => {
    await trx('search_reindexes')
      .where({ workspace_id: workspaceId, state: 'RUNNING' })
      .update({ processed: p.done, total: p.total });
  });

export const reindexFinished = (db: Knex, workspaceId: string, p: ReindexProgress) =>
  write(db, workspaceId, { state: 'DONE', processed: p.done, total: p.total, finished_at: db.fn.now() });

export const reindexFailed = (db: Knex, workspaceId: string, error: string) =>
  write(db, workspaceId, { state: 'FAILED', finished_at: db.fn.now(), error: error.slice(0, 1000) });
