import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import { callerOf } from '../projects/caller.ts';
import { boardFor, groupFor } from './access.ts';
import { description, groupTitle, hexColor, uuid } from './inputs.ts';
import { rankBetweenNeighbours, rankForNewItem } from '../ranks/reorder.ts';
import { groupView, type TagGroupRow, type TagGroupView } from './rows.ts';

export async function getTagGroup(ctx: RequestContext, args: unknown): Promise<TagGroupView> {
  const caller = callerOf(ctx, 'tags:read');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => groupView((await groupFor(trx, caller, id, 'read')).group));
}

const createInput = z.object({
  boardId: uuid('boardId'),
  title: groupTitle,
  color: hexColor.nullish(),
  description: description.nullish(),
});

export async function createTagGroup(ctx: RequestContext, args: { input?: unknown }): Promise<TagGroupView> {
  const caller = callerOf(ctx, 'tags:create');
  const input = validate(createInput, args.input);
  return ctx.tx(async (trx) => {
    await boardFor(trx, caller, input.boardId, 'write');
    const rank = await rankForNewItem(trx, { table: 'tag_groups', scope: { board_id: input.boardId } });
    const [row] = (await trx('tag_groups')
      .insert({
        workspace_id: caller.workspaceId,
        board_id: input.boardId,
        title: input.title,
        color: input.color ?? null,
        description: input.description ?? null,
        rank,
        created_by: caller.userId,
      })
      .returning('*')) as TagGroupRow[];
    return groupView(row!);
  });
}

const updateInput = z.object({
  id: uuid('id'),
  title: groupTitle.optional(),
  color: hexColor.nullish(),
  description: description.nullish(),
});

export async function updateTagGroup(ctx: RequestContext, args: { input?: unknown }): Promise<TagGroupView> {
  const caller = callerOf(ctx, 'tags:update');
  const input = validate(updateInput, args.input);
  return ctx.tx(async (trx) => {
    await groupFor(trx, caller, input.id, 'write');
    const patch: Record<string, unknown> = { updated_at: trx.fn.now() };
    for (const key of ['title', 'color', 'description'] as const) if (input[key] !== undefined) patch[key] = input[key];
    const [row] = (await trx('tag_groups').where({ id: input.id }).update(patch).returning('*')) as TagGroupRow[];
    return groupView(row!);
  });
}

const moveInput = z.object({
  id: uuid('id'),
  previousId: uuid('previousId').nullish(),
  nextId: uuid('nextId').nullish(),
});

/** Reorders a group within its board, between two neighbours. */
export async function moveTagGroup(ctx: RequestContext, args: { input?: unknown }): Promise<TagGroupView> {
  const caller = callerOf(ctx, 'tags:update');
  const input = validate(moveInput, args.input);
  return ctx.tx(async (trx) => {
    const { group } = await groupFor(trx, caller, input.id, 'write');
    const rank = await rankBetweenNeighbours(
      trx,
      { table: 'tag_groups', scope: { board_id: group.board_id } },
      group.id,
      input,
    );
    const [row] = (await trx('tag_groups')
      .where({ id: group.id })
      .update({ rank, updated_at: trx.fn.now() })
      .returning('*')) as TagGroupRow[];
    return groupView(row!);
  });
}

/** Deleting a group keeps its tags on the board, ungrouped (Manager+, 002 §6). */
export async function deleteTagGroup(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'tags:manage');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => {
    await groupFor(trx, caller, id, 'write');
    await trx('tag_groups').where({ id }).delete();
    return true;
  });
}
