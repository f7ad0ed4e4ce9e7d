import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import { projectFor } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { boardFor, readableProjects } from './access.ts';
import { boardTitle, description, uuid } from './inputs.ts';
import { rankForNewItem } from '../ranks/reorder.ts';
import { boardView, type TagBoardRow, type TagBoardView } from './rows.ts';

const listArgs = z.object({ projectId: uuid('projectId').nullish(), includeWorkspace: z.boolean().nullish() });

/**
 * The tag boards of a project, or the workspace's own boards when no project is given (000 §2:
 * /settings/tags and /projects/{id}/tags). `includeWorkspace` adds the workspace's boards to a
 * project's, since a project's highlights may be tagged from both.
 */
export async function listTagBoards(ctx: RequestContext, args: unknown): Promise<TagBoardView[]> {
  const caller = callerOf(ctx, 'tags:read');
  const { projectId, includeWorkspace } = validate(listArgs, args);
  return ctx.tx(async (trx) => {
    if (projectId) await projectFor(trx, caller, projectId, 'read');
    const q = trx('tag_boards').where({ workspace_id: caller.workspaceId });
    if (projectId)
      q.where((w) =>
        includeWorkspace
          ? w.where('project_id', projectId).orWhereNull('project_id')
          : w.where('project_id', projectId),
      );
    else q.whereNull('project_id');
    const rows = (await q.orderByRaw('project_id is not null, rank, created_at, id')) as TagBoardRow[];
    return rows.map(boardView);
  });
}

/** Every board the caller can read, workspace and project boards alike. */
export async function listAllTagBoards(ctx: RequestContext): Promise<TagBoardView[]> {
  const caller = callerOf(ctx, 'tags:read');
  return ctx.tx(async (trx) => {
    const projects = await readableProjects(trx, caller);
    const rows = (await trx('tag_boards')
      .where({ workspace_id: caller.workspaceId })
      .where((w) => w.whereNull('project_id').orWhereIn('project_id', projects))
      .orderByRaw('project_id is not null, rank, created_at, id')) as TagBoardRow[];
    return rows.map(boardView);
  });
}

export async function getTagBoard(ctx: RequestContext, args: unknown): Promise<TagBoardView> {
  const caller = callerOf(ctx, 'tags:read');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => boardView(await boardFor(trx, caller, id, 'read')));
}

const createInput = z.object({
  projectId: uuid('projectId').nullish(),
  title: boardTitle,
  description: description.nullish(),
});

export async function createTagBoard(ctx: RequestContext, args: { input?: unknown }): Promise<TagBoardView> {
  const caller = callerOf(ctx, 'tags:create');
  const input = validate(createInput, args.input);
  return ctx.tx(async (trx) => {
    if (input.projectId) await projectFor(trx, caller, input.projectId, 'write');
    const rank = await rankForNewItem(trx, {
      table: 'tag_boards',
      scope: { workspace_id: caller.workspaceId, project_id: input.projectId ?? null },
    });
    const [row] = (await trx('tag_boards')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: input.projectId ?? null,
        title: input.title,
        description: input.description ?? null,
        rank,
        created_by: caller.userId,
      })
      .returning('*')) as TagBoardRow[];
    return boardView(row!);
  });
}

const updateInput = z.object({ id: uuid('id'), title: boardTitle.optional(), description: description.nullish() });

export async function updateTagBoard(ctx: RequestContext, args: { input?: unknown }): Promise<TagBoardView> {
  const caller = callerOf(ctx, 'tags:update');
  const input = validate(updateInput, args.input);
  return ctx.tx(async (trx) => {
    await boardFor(trx, caller, input.id, 'write');
    const patch: Record<string, unknown> = { updated_at: trx.fn.now() };
    if (input.title !== undefined) patch.title = input.title;
    if (input.description !== undefined) patch.description = input.description;
    const [row] = (await trx('tag_boards').where({ id: input.id }).update(patch).returning('*')) as TagBoardRow[];
    return boardView(row!);
  });
}

/** Deleting a board deletes its groups, tags and their taggings (Manager+, 002 §6). */
export async function deleteTagBoard(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'tags:manage');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => {
    await boardFor(trx, caller, id, 'write');
    await trx('tag_boards').where({ id }).delete();
    return true;
  });
}
