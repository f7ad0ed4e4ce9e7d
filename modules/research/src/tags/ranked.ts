import type { Knex } from 'knex';
import { badInput } from '@fieldbook/core';
import { evenlySpacedRanks, needsRebalance, rankAtEnd, rankBetween } from '../ranks/ranks.ts';

/**
 * Ordered lists of tag boards, groups, tags and fields. They have no trash, so this is the
 * plain-table counterpart of ranks/reorder.ts, on the same rank rules (000 §9).
 */
export interface PlainRankedList {
  table: 'tag_boards' | 'tag_groups' | 'tags' | 'fields' | 'field_options';
  /** Column values that select the list; null means IS NULL. */
  scope: Readonly<Record<string, string | null>>;
}

export interface Neighbours {
  previousId?: string | null;
  nextId?: string | null;
}

function listQuery(trx: Knex.Transaction, list: PlainRankedList) {
  const q = trx(list.table);
  for (const [column, value] of Object.entries(list.scope)) {
    if (value === null) q.whereNull(column);
    else q.where(column, value);
  }
  return q;
}

async function lockList(trx: Knex.Transaction, list: PlainRankedList): Promise<void> {
  const key = `${list.table}:${Object.entries(list.scope).map(([k, v]) => `${k}=${v ?? ''}`).join(',')}`;
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** The rank for a new item at the end of the list. */
export async function rankAtEndOf(trx: Knex.Transaction, list: PlainRankedList): Promise<number> {
  await lockList(trx, list);
  const row = (await listQuery(trx, list).max('rank as max').first()) as { max: number | null } | undefined;
  return rankAtEnd(row?.max ?? null);
}

interface RankRow {
  id: string;
  rank: number;
}

/**
 * The rank that puts item `id` between its new neighbours in `list` (where it may not be yet):
 * only `previousId` means right after it, only `nextId` right before it, neither the end. The
 * list is renumbered evenly when the neighbours are too close. Writes nothing for `id` itself.
 */
export async function rankBetweenNeighbours(trx: Knex.Transaction, list: PlainRankedList, id: string, target: Neighbours): Promise<number> {
  await lockList(trx, list);
  if (target.previousId === id || target.nextId === id) throw badInput('previousId', 'An item cannot be placed next to itself.');
  const others = () => listQuery(trx, list).whereNot('id', id);
  const find = async (neighbourId: string, field: string): Promise<RankRow> => {
    const row = (await others().where('id', neighbourId).first('id', 'rank')) as RankRow | undefined;
    if (!row) throw badInput(field, 'The neighbour to place the item next to is not in the same list.');
    return row;
  };
  const ordered = () => others().orderBy([{ column: 'rank' }, { column: 'id' }]);
  let previous = target.previousId ? await find(target.previousId, 'previousId') : null;
  let next = target.nextId ? await find(target.nextId, 'nextId') : null;
  if (previous && !next) {
    const all = (await ordered().select('id', 'rank')) as RankRow[];
    next = all[all.findIndex((r) => r.id === previous!.id) + 1] ?? null;
  } else if (next && !previous) {
    const all = (await ordered().select('id', 'rank')) as RankRow[];
    previous = all[all.findIndex((r) => r.id === next!.id) - 1] ?? null;
  } else if (!previous && !next) {
    const last = (await others().max('rank as max').first()) as { max: number | null } | undefined;
    return rankAtEnd(last?.max ?? null);
  }
  if (previous && next && previous.rank > next.rank) throw badInput('nextId', 'The item after must come after the item before.');
  if (!needsRebalance(previous?.rank, next?.rank)) return rankBetween(previous?.rank, next?.rank);

  // Too close: renumber the others evenly, leaving a gap where the item goes.
  const ids = ((await ordered().select('id')) as Array<{ id: string }>).map((r) => r.id);
  const at = previous ? ids.indexOf(previous.id) + 1 : ids.indexOf(next!.id);
  const ranks = evenlySpacedRanks(ids.length + 1);
  const withGap = ranks.filter((_, i) => i !== at);
  await trx.raw(
    `update ?? as t set rank = v.rank from (select unnest(?::uuid[]) as id, unnest(?::double precision[]) as rank) as v where t.id = v.id`,
    [list.table, ids, withGap],
  );
  return ranks[at]!;
}
