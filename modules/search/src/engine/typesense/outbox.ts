import type { Knex } from 'knex';
import { withTenant } from '@fieldbook/core';
import { SEARCH_RESULT_TYPES, type SearchResultType } from '../../filters/index.ts';
import type { SearchDocumentRef } from '../engine.ts';
import type { TypesenseEngine } from './engine.ts';

/**
 * Drains `search_changes` (migration 0014), the outbox the research tables' triggers fill while
 * Typesense is configured, into the index.
 *
 * A batch is taken with `FOR UPDATE SKIP LOCKED`, so two workers draining one workspace share its
 * rows instead of waiting on each other; each worker then takes a transaction-scoped advisory
 * lock per item, in one order, before re-reading. So one item is never synced by two workers at
 * once, and a later change's sync starts after the earlier one's finished: whichever sync comes
 * last has read the latest state, never an older one. The rows are deleted in the transaction
 * that handled them; a crash before its commit leaves them for the next run, and syncing an item
 * twice is harmless.
 */

/** Rows taken per transaction. */
const BATCH = 500;
/** Batches one drain run takes before it leaves the rest to the next run (and other queues a turn). */
const MAX_BATCHES = 40;
/** The outbox's name for "every item of this project". */
export const PROJECT_ITEMS = 'PROJECT_ITEMS';

interface ChangeRow {
  id: string;
  object_type: string;
  object_id: string;
}

/**
 * Handles the workspace's pending changes: how many outbox rows were handled, and whether this
 * run stopped at its limit with more left.
 */
export async function drainWorkspace(
  engine: TypesenseEngine,
  db: Knex,
  workspaceId: string,
): Promise<{ handled: number; more: boolean }> {
  let handled = 0;
  for (let i = 0; i < MAX_BATCHES; i += 1) {
    const count = await withTenant(db, { workspaceId }, async (trx) => {
      const rows = (
        (await trx.raw(
          `select id::text as id, object_type, object_id::text as object_id from search_changes
            where workspace_id = ?::uuid order by id limit ?::int for update skip locked`,
          [workspaceId, BATCH],
        )) as { rows: ChangeRow[] }
      ).rows;
      if (rows.length === 0) return 0;
      const items = distinctItems(rows);
      await trx.raw(
        `select pg_advisory_xact_lock(k) from (select distinct hashtextextended(x, 0) as k from unnest(?::text[]) x order by 1) s`,
        [items.map((item) => `search:${workspaceId}:${item.type}:${item.id}`)],
      );
      const refs = items.filter((item): item is SearchDocumentRef => item.type !== PROJECT_ITEMS);
      await engine.sync(workspaceId, refs, trx);
      for (const project of items.filter((item) => item.type === PROJECT_ITEMS))
        await engine.syncProject(workspaceId, project.id, trx);
      await trx.raw('delete from search_changes where id = any(?::bigint[])', [rows.map((r) => r.id)]);
      return rows.length;
    });
    handled += count;
    if (count < BATCH) return { handled, more: false };
  }
  return { handled, more: true };
}

/** The workspaces that have pending changes (read across workspaces, ids only). */
export async function workspacesWithChanges(db: Knex): Promise<string[]> {
  return db.transaction(async (trx) => {
    await trx.raw(`select set_config('app.search_sweep', 'on', true)`);
    const rows = (
      (await trx.raw('select distinct workspace_id::text as id from search_changes')) as { rows: Array<{ id: string }> }
    ).rows;
    return rows.map((r) => r.id);
  });
}

type Item = { type: SearchResultType | typeof PROJECT_ITEMS; id: string };

function distinctItems(rows: readonly ChangeRow[]): Item[] {
  const seen = new Map<string, Item>();
  for (const row of rows) {
    const type = row.object_type as Item['type'];
    // A type this release does not know (written by a newer one) is left to a full reindex.
    if (type !== PROJECT_ITEMS && !SEARCH_RESULT_TYPES.includes(type)) continue;
    seen.set(`${type}:${row.object_id}`, { type, id: row.object_id });
  }
  return [...seen.values()];
}

/**
 * Turns the outbox on (Typesense configured) or off. Turning it on after it was off means the
 * index missed every change in between, so each workspace gets a full reindex (returned, for the
 * caller to queue); turning it off empties the outbox, since nothing will drain it. Runs as the
 * database owner: TRUNCATE is not subject to row-level security.
 */
export async function setOutbox(owner: Knex, on: boolean): Promise<{ turnedOn: boolean; workspaceIds: string[] }> {
  if (!on) {
    await owner.transaction(async (trx) => {
      await trx.raw('delete from search_outbox_switch');
      await trx.raw('truncate search_changes');
    });
    return { turnedOn: false, workspaceIds: [] };
  }
  const inserted = (await owner.raw(
    'insert into search_outbox_switch default values on conflict do nothing returning on_since',
  )) as { rows: unknown[] };
  if (inserted.rows.length === 0) return { turnedOn: false, workspaceIds: [] };
  const workspaces = (await owner.raw('select id::text as id from workspaces')) as { rows: Array<{ id: string }> };
  return { turnedOn: true, workspaceIds: workspaces.rows.map((r) => r.id) };
}
