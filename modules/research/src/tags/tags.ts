import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, forbidden, validate, type RequestContext } from '@fieldbook/core';
import { colorFromLabel } from '../colors/colors.ts';
import { callerOf, isManager } from '../projects/caller.ts';
import { boardFor, groupFor, tagFor } from './access.ts';
import { description, hexColor, tagTitle, uuid } from './inputs.ts';
import { rankBetweenNeighbours, rankForNewItem } from '../ranks/reorder.ts';
import { tagView, type TagRow, type TagView } from './rows.ts';

export async function getTag(ctx: RequestContext, args: unknown): Promise<TagView> {
  const caller = callerOf(ctx, 'tags:read');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => tagView((await tagFor(trx, caller, id, 'read')).tag));
}

const GROUP_ELSEWHERE = 'That tag group is on another board.';
const LOCKED = 'This tag is locked: only managers can rename it.';
const LOCKING = 'Only managers can lock or unlock a tag.';

const createInput = z.object({
  boardId: uuid('boardId'),
  groupId: uuid('groupId').nullish(),
  title: tagTitle,
  color: hexColor.nullish(),
  description: description.nullish(),
  locked: z.boolean().nullish(),
});

/** A new tag goes last in its group (or among the board's ungrouped tags); its colour defaults from its title. */
export async function createTag(ctx: RequestContext, args: { input?: unknown }): Promise<TagView> {
  const caller = callerOf(ctx, 'tags:create');
  const input = validate(createInput, args.input);
  if (input.locked && !isManager(caller)) throw forbidden(LOCKING);
  return ctx.tx(async (trx) => {
    await boardFor(trx, caller, input.boardId, 'write');
    if (input.groupId) {
      const { group } = await groupFor(trx, caller, input.groupId, 'write');
      if (group.board_id !== input.boardId) throw badInput('groupId', GROUP_ELSEWHERE);
    }
    const rank = await rankForNewItem(trx, {
      table: 'tags',
      scope: { board_id: input.boardId, group_id: input.groupId ?? null },
    });
    const [row] = (await trx('tags')
      .insert({
        workspace_id: caller.workspaceId,
        board_id: input.boardId,
        group_id: input.groupId ?? null,
        title: input.title,
        color: input.color ?? colorFromLabel(input.title),
        description: input.description ?? null,
        locked: input.locked ?? false,
        rank,
        created_by: caller.userId,
      })
      .returning('*')) as TagRow[];
    return tagView(row!);
  });
}

const updateInput = z.object({
  id: uuid('id'),
  title: tagTitle.optional(),
  color: hexColor.optional(),
  description: description.nullish(),
  locked: z.boolean().optional(),
});

/** Contributors may edit a tag; renaming a locked one, and locking, are for managers (002 §6). */
export async function updateTag(ctx: RequestContext, args: { input?: unknown }): Promise<TagView> {
  const caller = callerOf(ctx, 'tags:update');
  const input = validate(updateInput, args.input);
  return ctx.tx(async (trx) => {
    const { tag } = await tagFor(trx, caller, input.id, 'write');
    if (input.locked !== undefined && input.locked !== tag.locked && !isManager(caller)) throw forbidden(LOCKING);
    if (input.title !== undefined && input.title !== tag.title && tag.locked && !isManager(caller))
      throw forbidden(LOCKED);
    const patch: Record<string, unknown> = { updated_at: trx.fn.now() };
    for (const key of ['title', 'color', 'description', 'locked'] as const)
      if (input[key] !== undefined) patch[key] = input[key];
    const [row] = (await trx('tags').where({ id: tag.id }).update(patch).returning('*')) as TagRow[];
    return tagView(row!);
  });
}

/** Deleting a tag removes it from every highlight (Manager+, 002 §6; locked tags included). */
export async function deleteTag(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'tags:manage');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => {
    await tagFor(trx, caller, id, 'write');
    await trx('tags').where({ id }).delete();
    return true;
  });
}

/**
 * A tag on a project's board may only be on that project's highlights. Throws unless every
 * highlight tagged with `tagIds` fits a board of `projectId` (a workspace board fits all).
 */
export async function assertTaggingsFit(
  trx: Knex.Transaction,
  tagIds: readonly string[],
  projectId: string | null,
  field: string,
): Promise<void> {
  if (!projectId || tagIds.length === 0) return;
  const clash = await trx('highlight_tags as ht')
    .join('highlights as h', 'h.id', 'ht.highlight_id')
    .whereIn('ht.tag_id', tagIds)
    .whereNot('h.project_id', projectId)
    .first('ht.tag_id');
  if (clash)
    throw badInput(field, 'This tag is on highlights of other projects, so it can only go to a workspace tag board.');
}

const moveInput = z.object({
  id: uuid('id'),
  boardId: uuid('boardId').nullish(),
  groupId: uuid('groupId').nullish(),
  previousId: uuid('previousId').nullish(),
  nextId: uuid('nextId').nullish(),
});

/**
 * Moves a tag into a group (or out of one, with groupId null), onto another board, and between
 * two neighbours of its new list. Leaving out groupId keeps the group on the same board and
 * ungroups the tag on another board.
 */
export async function moveTag(ctx: RequestContext, args: { input?: unknown }): Promise<TagView> {
  const caller = callerOf(ctx, 'tags:update');
  const raw = (args.input ?? {}) as Record<string, unknown>;
  const input = validate(moveInput, raw);
  return ctx.tx(async (trx) => {
    const { tag, board } = await tagFor(trx, caller, input.id, 'write');
    let groupId: string | null = 'groupId' in raw ? (input.groupId ?? null) : tag.group_id;
    let boardId = input.boardId ?? board.id;
    if (input.groupId) {
      const { group } = await groupFor(trx, caller, input.groupId, 'write');
      if (input.boardId && group.board_id !== input.boardId) throw badInput('groupId', GROUP_ELSEWHERE);
      boardId = group.board_id;
    } else if (boardId !== board.id && !('groupId' in raw)) {
      groupId = null;
    }
    if (boardId !== board.id) {
      const target = await boardFor(trx, caller, boardId, 'write');
      await assertTaggingsFit(trx, [tag.id], target.project_id, 'boardId');
    }
    const rank = await rankBetweenNeighbours(
      trx,
      { table: 'tags', scope: { board_id: boardId, group_id: groupId } },
      tag.id,
      input,
    );
    const [row] = (await trx('tags')
      .where({ id: tag.id })
      .update({ board_id: boardId, group_id: groupId, rank, updated_at: trx.fn.now() })
      .returning('*')) as TagRow[];
    return tagView(row!);
  });
}
