import type { Knex } from 'knex';
import { badInput } from '@fieldbook/core';
import { evenlySpacedRanks, needsRebalance, rankAtEnd, rankBetween } from './ranks.ts';

/** Tables whose rows keep a rank; the first four have a trash, whose rows are not in any list. */
const TRASHED_TABLES = ['projects', 'project_categories', 'notes', 'insights'] as const;
type RankedTable =
  | (typeof TRASHED_TABLES)[number]
  | 'tag_boards'
  | 'tag_groups'
  | 'tags'
  | 'fields'
  | 'field_options'
  | 'project_views';

/** One ordered list: the rows of `table` matching `scope` (and not in the trash). */
export interface RankedList {
  table: RankedTable;
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
  const q = trx(list.table);
  if ((TRASHED_TABLES as readonly string[]).includes(list.table)) q.whereNull('deleted_at');
  for (const [column, value] of Object.entries(list.scope)) {
    if (value === null) q.whereNull(column);
    else q.where(column, value);
  }
  return q;
}

/** Serialises reorders of one list, so two drops never read the same neighbours. */
async function lockList(trx: Knex.Transaction, list: RankedList): Promise<void> {
  const key = `${list.table}:${Object.entries(list.scope)
    .map(([k, v]) => `${k}=${v ?? ''}`)
    .join(',')}`;
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** The rank for a new item at the end of a list. */
export async function rankForNewItem(trx: Knex.Transaction, list: RankedList): Promise<number> {
  await lockList(trx, list);
  const row = (await listQuery(trx, list).max('rank as max').first()) as { max: number | null } | undefined;
  return rankAtEnd(row?.max ?? null);
}

/**
 * The rank that puts item `id` between two neighbours of `list`, which it may or may not be in
 * yet (a tag moving to another group). A missing neighbour is read from the list: only
 * `previousId` means "right after it", only `nextId` "right before it", neither "at the end".
 * When the neighbours are too close the rest of the list is renumbered evenly in the same
 * transaction, leaving a gap for the item, so a move never fails for lack of room. Writes
 * nothing for `id` itself.
 */
export async function rankBetweenNeighbours(
  trx: Knex.Transaction,
  list: RankedList,
  id: string,
  target: MoveTarget,
): Promise<number> {
  await lockList(trx, list);
  if (target.previousId === id || target.nextId === id)
    throw badInput('previousId', 'An item cannot be placed next to itself.');
  const others = () => listQuery(trx, list).whereNot('id', id);
  const find = async (neighbourId: string, field: 'previousId' | 'nextId'): Promise<RankRow> => {
    const row = (await others().where('id', neighbourId).first('id', 'rank')) as RankRow | undefined;
    if (!row) throw badInput(field, 'The neighbour to place the item next to is not in the same list.');
    return row;
  };
  let previous = target.previousId ? await find(target.previousId, 'previousId') : null;
  let next = target.nextId ? await find(target.nextId, 'nextId') : null;
  if (previous && !next) {
    const p = previous;
    next =
      ((await others()
        .where((q) => q.where('rank', '>', p.rank).orWhere((w) => w.where('rank', p.rank).where('id', '>', p.id)))
        .orderBy([{ column: 'rank' }, { column: 'id' }])
        .first('id', 'rank')) as RankRow | undefined) ?? null;
  } else if (next && !previous) {
    const n = next;
    previous =
      ((await others()
        .where((q) => q.where('rank', '<', n.rank).orWhere((w) => w.where('rank', n.rank).where('id', '<', n.id)))
        .orderBy([
          { column: 'rank', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .first('id', 'rank')) as RankRow | undefined) ?? null;
  } else if (!previous && !next) {
    const last = (await others().max('rank as max').first()) as { max: number | null } | undefined;
    return rankAtEnd(last?.max ?? null);
  }
  if (previous && next && previous.rank > next.rank)
    throw badInput('nextId', 'The item after must come after the item before.');
  if (!needsRebalance(previous?.rank, next?.rank)) return rankBetween(previous?.rank, next?.rank);

  // Too close: renumber the others evenly, leaving a gap where the item goes.
  const ids = (
    (await others()
      .orderBy([{ column: 'rank' }, { column: 'id' }])
      .select('id')) as Array<{ id: string }>
  ).map((r) => r.id);
  const at = previous ? ids.indexOf(previous.id) + 1 : ids.indexOf(next!.id);
  const ranks = evenlySpacedRanks(ids.length + 1);
  await trx.raw(
    `update ?? as t set rank = v.rank from (select unnest(?::uuid[]) as id, unnest(?::double precision[]) as rank) as v where t.id = v.id`,
    [list.table, ids, ranks.filter((_, i) => i !== at)],
  );
  return ranks[at]!;
}

/** Moves item `id`, already in `list`, between two neighbours (see rankBetweenNeighbours). */
export async function moveBetween(
  trx: Knex.Transaction,
  list: RankedList,
  id: string,
  target: MoveTarget,
): Promise<number> {
  const rank = await rankBetweenNeighbours(trx, list, id, target);
  await trx(list.table).where('id', id).update({ rank });
  return rank;
}
