import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { moveBetween, rankForNewItem, type RankedList } from '../ranks/reorder.ts';
import type { Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema, requiredTitle, sent } from '../projects/inputs.ts';

export interface FolderRow {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  title: string;
  rank: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface FolderView extends FolderRow {
  caller: Caller;
}

const folderList = (workspaceId: string, parentId: string | null): RankedList => ({
  table: 'project_categories',
  scope: { workspace_id: workspaceId, parent_id: parentId },
});

export async function folderOf(
  trx: Knex.Transaction,
  workspaceId: string,
  id: string,
  field = 'id',
): Promise<FolderRow> {
  const folder = (await trx('project_categories')
    .where({ id, workspace_id: workspaceId })
    .whereNull('deleted_at')
    .first()) as FolderRow | undefined;
  if (!folder) throw field === 'id' ? notFound('That folder') : badInput(field, 'That folder was not found.');
  return folder;
}

/** Titles from the outermost folder down to this one. */
export async function folderAncestry(trx: Knex.Transaction, id: string): Promise<string[]> {
  const { rows } = (await trx.raw(
    `with recursive up as (
       select id, parent_id, title, 0 as depth from project_categories where id = ?
       union all
       select c.id, c.parent_id, c.title, up.depth + 1 from project_categories c join up on c.id = up.parent_id
     ) select title from up order by depth desc`,
    [id],
  )) as { rows: Array<{ title: string }> };
  return rows.map((r) => r.title);
}

/** A folder and every folder below it (trashed ones included, so a restore finds them). */
async function subtreeIds(trx: Knex.Transaction, id: string): Promise<string[]> {
  const { rows } = (await trx.raw(
    `with recursive down as (
       select id from project_categories where id = ?
       union all
       select c.id from project_categories c join down on c.parent_id = down.id
     ) select id from down`,
    [id],
  )) as { rows: Array<{ id: string }> };
  return rows.map((r) => r.id);
}

const view =
  (caller: Caller) =>
  (row: FolderRow): FolderView => ({ ...row, caller });

export async function listFolders(ctx: RequestContext, args: unknown): Promise<FolderView[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { parentId, all } = validate(
    z.object({ parentId: idSchema('parentId').nullish(), all: z.boolean().nullish() }),
    args,
  );
  return ctx.tx(async (trx) => {
    const q = trx('project_categories')
      .where({ workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .orderBy([{ column: 'rank' }, { column: 'id' }]);
    if (!all) {
      if (parentId) q.where({ parent_id: parentId });
      else q.whereNull('parent_id');
    }
    return ((await q) as FolderRow[]).map(view(caller));
  });
}

export async function getFolder(ctx: RequestContext, args: unknown): Promise<FolderView> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => view(caller)(await folderOf(trx, caller.workspaceId, id)));
}

export async function createFolder(ctx: RequestContext, args: unknown): Promise<FolderView> {
  const caller = callerOf(ctx, 'categories:update');
  const input = validate(z.object({ title: requiredTitle('folder'), parentId: idSchema('parentId').nullish() }), args);
  return ctx.tx(async (trx) => {
    if (input.parentId) await folderOf(trx, caller.workspaceId, input.parentId, 'parentId');
    const rank = await rankForNewItem(trx, folderList(caller.workspaceId, input.parentId ?? null));
    const [row] = (await trx('project_categories')
      .insert({
        workspace_id: caller.workspaceId,
        parent_id: input.parentId ?? null,
        title: input.title,
        rank,
        created_by: caller.userId,
      })
      .returning('*')) as FolderRow[];
    return view(caller)(row!);
  });
}

export async function renameFolder(ctx: RequestContext, args: unknown): Promise<FolderView> {
  const caller = callerOf(ctx, 'categories:update');
  const { id, title } = validate(z.object({ id: idSchema(), title: requiredTitle('folder') }), args);
  return ctx.tx(async (trx) => {
    await folderOf(trx, caller.workspaceId, id);
    const [row] = (await trx('project_categories')
      .where({ id })
      .update({ title, updated_at: trx.fn.now() })
      .returning('*')) as FolderRow[];
    return view(caller)(row!);
  });
}

/**
 * Moves a folder under another (or to the top when `parentId` is null) and between two
 * neighbours there. A folder cannot go inside itself or one of its own folders.
 */
export async function moveFolder(ctx: RequestContext, args: unknown): Promise<FolderView> {
  const caller = callerOf(ctx, 'categories:update');
  const input = validate(
    z.object({
      id: idSchema(),
      parentId: idSchema('parentId').nullish(),
      previousId: idSchema('previousId').nullish(),
      nextId: idSchema('nextId').nullish(),
    }),
    args,
  );
  return ctx.tx(async (trx) => {
    const folder = await folderOf(trx, caller.workspaceId, input.id);
    const parentId = sent(input, 'parentId') ? (input.parentId ?? null) : folder.parent_id;
    if (parentId) {
      await folderOf(trx, caller.workspaceId, parentId, 'parentId');
      if ((await subtreeIds(trx, folder.id)).includes(parentId))
        throw badInput('parentId', 'A folder cannot be moved inside itself or one of its own folders.');
    }
    if (parentId !== folder.parent_id)
      await trx('project_categories')
        .where({ id: folder.id })
        .update({ parent_id: parentId, updated_at: trx.fn.now() });
    await moveBetween(trx, folderList(caller.workspaceId, parentId), folder.id, input);
    return view(caller)((await trx('project_categories').where({ id: folder.id }).first()) as FolderRow);
  });
}

/**
 * Moves a folder and the folders inside it to the trash, all with the same time so they are
 * restored together. Projects inside stay where they are and show no folder until it is restored.
 */
export async function deleteFolder(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'categories:manage');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await folderOf(trx, caller.workspaceId, id);
    const ids = await subtreeIds(trx, id);
    const now = new Date();
    await trx('project_categories').whereIn('id', ids).whereNull('deleted_at').update({ deleted_at: now });
    return true;
  });
}

/** Brings a folder back with the folders that were trashed along with it. */
export async function restoreFolder(trx: Knex.Transaction, workspaceId: string, id: string): Promise<void> {
  const folder = (await trx('project_categories')
    .where({ id, workspace_id: workspaceId })
    .whereNotNull('deleted_at')
    .first()) as FolderRow | undefined;
  if (!folder) throw notFound('That folder in the trash');
  if (folder.parent_id) {
    const parent = await trx('project_categories').where({ id: folder.parent_id }).first('deleted_at');
    if (parent?.deleted_at) throw badInput('id', 'Restore the folder this folder was in first.');
  }
  const ids = await subtreeIds(trx, id);
  await trx('project_categories')
    .whereIn('id', ids)
    .where('deleted_at', folder.deleted_at!)
    .update({ deleted_at: null, updated_at: trx.fn.now() });
}
