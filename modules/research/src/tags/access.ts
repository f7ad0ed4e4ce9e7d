import type { Knex } from 'knex';
import { notFound, type PermissionLevel } from '@fieldbook/core';
import { projectFor, readableProjectIds, type Caller } from '../projects/access.ts';
import type { TagBoardRow, TagGroupRow, TagRow } from './rows.ts';

/**
 * A board is reachable when it is the workspace's, or its project is reachable at `needed`
 * (000 §6 per-project access): otherwise NOT_FOUND, like any id of another workspace.
 */
export async function boardFor(
  trx: Knex.Transaction,
  caller: Caller,
  boardId: string,
  needed: PermissionLevel,
): Promise<TagBoardRow> {
  const board = (await trx('tag_boards').where({ id: boardId, workspace_id: caller.workspaceId }).first()) as
    | TagBoardRow
    | undefined;
  if (!board) throw notFound('That tag board');
  if (board.project_id) await projectFor(trx, caller, board.project_id, needed).catch(rethrowAs('That tag board'));
  return board;
}

export async function groupFor(
  trx: Knex.Transaction,
  caller: Caller,
  groupId: string,
  needed: PermissionLevel,
): Promise<{ group: TagGroupRow; board: TagBoardRow }> {
  const group = (await trx('tag_groups').where({ id: groupId, workspace_id: caller.workspaceId }).first()) as
    | TagGroupRow
    | undefined;
  if (!group) throw notFound('That tag group');
  const board = await boardFor(trx, caller, group.board_id, needed).catch(rethrowAs('That tag group'));
  return { group, board };
}

export async function tagFor(
  trx: Knex.Transaction,
  caller: Caller,
  tagId: string,
  needed: PermissionLevel,
): Promise<{ tag: TagRow; board: TagBoardRow }> {
  const tag = (await trx('tags').where({ id: tagId, workspace_id: caller.workspaceId }).first()) as TagRow | undefined;
  if (!tag) throw notFound('That tag');
  const board = await boardFor(trx, caller, tag.board_id, needed).catch(rethrowAs('That tag'));
  return { tag, board };
}

/** Tags by id, each reachable at `needed`; NOT_FOUND for the first that is not. */
export async function tagsFor(
  trx: Knex.Transaction,
  caller: Caller,
  tagIds: readonly string[],
  needed: PermissionLevel,
): Promise<Array<{ tag: TagRow; board: TagBoardRow }>> {
  const out: Array<{ tag: TagRow; board: TagBoardRow }> = [];
  for (const id of tagIds) out.push(await tagFor(trx, caller, id, needed));
  return out;
}

/** The projects whose boards the caller may read, for listing across projects. */
export const readableProjects = (trx: Knex.Transaction, caller: Caller): Promise<string[]> =>
  readableProjectIds(trx, caller);

/** A project the caller cannot reach, behind an item, reads as the item itself missing. */
export function rethrowAs(what: string) {
  return (error: unknown): never => {
    if (error instanceof Error && 'errorCode' in error && error.errorCode === 'NOT_FOUND') throw notFound(what);
    throw error;
  };
}
