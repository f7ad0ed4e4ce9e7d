import type { Knex } from 'knex';
import { badInput } from '@fieldbook/core';
import { evenlySpacedRanks, needsRebalance, rankAtEnd, rankBetween } from './ranks.ts';

/** One ordered list: the rows of `table` matching `scope` that are not in the trash. */
export interface RankedList {
  table: 'projects' | 'project_categories' | 'notes' | 'insights';
  /** Column values that select the list, e.g. `{ workspace_id, project_id }`; null means IS NULL. */
  scope: Readonly<Record<string, string | null>>;
}

export interface MoveTarget {
  /** The item that will come right before the moved one; null or missing for none. */
  previousId?: string | null;
  /** The item that will come right after the moved one; null or missing for none. */
  nextId?: string | null;
}

interface RankRow {
  id: string;
  rank: number;
}

function listQuery(trx: Knex.Transaction, list: RankedList) {
  const q = trx(list.table).whereNull('deleted_at');
  for (const [column, value] of Object.entries(list.scope)) {
    if (value === null) q.whereNull(column);
    else q.where(column, value);
  }
  return q;
}

/** Serialises reorders of one list, so two drops never read the same neighbours. */
async function lockList(trx: Knex.Transaction, list: RankedList): Promise<void> {
  const key = `${list.table}:${Object.entries(list.scope).map(([k, v]) => `${k}=${v ?? ''}`).join(',')}`;
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** The rank for a new item at the end of a list. */
export async function rankForNewItem(trx: Knex.Transaction, list: RankedList): Promise<number> {
  await lockList(trx, list);
  const row = (await listQuery(trx, list).max('rank as max').first()) as { max: number | null } | undefined;
  return rankAtEnd(row?.max ?? null);
}

async function neighbour(trx: Knex.Transaction, list: RankedList, id: string, field: 'previousId' | 'nextId'): Promise<RankRow> {
  const row = (await listQuery(trx, list).where('id', id).first('id', 'rank')) as RankRow | undefined;
  if (!row) throw badInput(field, 'The neighbour to place the item next to is not in the same list.');
  return row;
}

/**
 * Moves item `id` (already in the list) between two neighbours. A missing neighbour is read
 * from the list: only `previousId` means "right after it", only `nextId` "right before it",
 * neither means "at the end". When the neighbours are too close the list is renumbered evenly
 * in the same transaction, so a move never fails for lack of room. Returns the new rank.
 */
export async function moveBetween(trx: Knex.Transaction, list: RankedList, id: string, target: MoveTarget): Promise<number> {
  await lockList(trx, list);
  if (target.previousId === id || target.nextId === id) throw badInput('previousId', 'An item cannot be placed next to itself.');
  const others = () => listQuery(trx, list).whereNot('id', id);
  let previous = target.previousId ? await neighbour(trx, list, target.previousId, 'previousId') : null;
  let next = target.nextId ? await neighbour(trx, list, target.nextId, 'nextId') : null;
  if (previous && !target.nextId) {
    next = ((await others().where((q) => q.where('rank', '>', previous!.rank).orWhere((w) => w.where('rank', previous!.rank).where('id', '>', previous!.id))).orderBy([{ column: 'rank' }, { column: 'id' }]).first('id', 'rank')) as RankRow | undefined) ?? null;
  } else if (next && !target.previousId) {
    previous = ((await others().where((q) => q.where('rank', '<', next!.rank).orWhere((w) => w.where('rank', next!.rank).where('id', '<', next!.id))).orderBy([{ column: 'rank', order: 'desc' }, { column: 'id', order: 'desc' }]).first('id', 'rank')) as RankRow | undefined) ?? null;
  } else if (!previous && !next) {
    const last = (await others().max('rank as max').first()) as { max: number | null } | undefined;
    const rank = rankAtEnd(last?.max ?? null);
    await trx(list.table).where('id', id).update({ rank });
    return rank;
  }
  if (previous && next && previous.rank > next.rank) throw badInput('nextId', 'The item after must come after the item before.');

  if (!needsRebalance(previous?.rank, next?.rank) && !(previous && next && previous.rank === next.rank)) {
    const rank = rankBetween(previous?.rank, next?.rank);
    await trx(list.table).where('id', id).update({ rank });
    return rank;
  }
  return rebalanceWith(trx, list, id, previous, next);
}

/** Renumbers the whole list evenly with `id` placed right after `previous` (or before `next`). */
async function rebalanceWith(trx: Knex.Transaction, list: RankedList, id: string, previous: RankRow | null, next: RankRow | null): Promise<number> {
  const rows = (await listQuery(trx, list).whereNot('id', id).orderBy([{ column: 'rank' }, { column: 'id' }]).select('id')) as Array<{ id: string }>;
  const ids = rows.map((r) => r.id);
  const at = previous ? ids.indexOf(previous.id) + 1 : next ? ids.indexOf(next.id) : ids.length;
  ids.splice(at, 0, id);
  const ranks = evenlySpacedRanks(ids.length);
  await trx.raw(
    `update ?? as t set rank = v.rank from (select unnest(?::uuid[]) as id, unnest(?::double precision[]) as rank) as v where t.id = v.id`,
    [list.table, ids, ranks],
  );
  return ranks[at]!;
}
