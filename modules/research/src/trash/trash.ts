import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, notFound, validate, type RequestContext } from '@fieldbook/core';
import { restoreFolder } from '../folders/folders.ts';
import { assertProjectRoom } from '../projects/projects.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';

/**
 * The trash: deleting sets `deleted_at` and hides the item from every list; managers and admins
 * see the trash and restore from it. A trashed project hides its notes, insights and highlights
 * without marking them, so restoring the project brings them all back as they were. People
 * (contacts) belong to no project; a restored person keeps their field values and links.
 */
export const TRASH_TYPES = ['PROJECT', 'FOLDER', 'NOTE', 'INSIGHT', 'HIGHLIGHT', 'PERSON'] as const;
export type TrashType = (typeof TRASH_TYPES)[number];

const TABLE: Record<TrashType, string> = {
  PROJECT: 'projects',
  FOLDER: 'project_categories',
  NOTE: 'notes',
  INSIGHT: 'insights',
  HIGHLIGHT: 'highlights',
  PERSON: 'people',
};

const TITLE: Record<TrashType, string> = {
  PROJECT: 'title',
  FOLDER: 'title',
  NOTE: 'title',
  INSIGHT: 'title',
  HIGHLIGHT: 'text',
  PERSON: 'name',
};
const PROJECT_COLUMN: Record<TrashType, string | null> = {
  PROJECT: 'id',
  FOLDER: null,
  NOTE: 'project_id',
  INSIGHT: 'project_id',
  HIGHLIGHT: 'project_id',
  PERSON: null,
};

export interface TrashItem {
  type: TrashType;
  id: string;
  title: string;
  projectId: string | null;
  deletedAt: Date;
}

const TRASH_LIMIT = 1000;

export async function listTrash(ctx: RequestContext, args: unknown): Promise<TrashItem[]> {
  const caller = callerOf(ctx, 'projects:delete');
  const { type } = validate(z.object({ type: z.enum(TRASH_TYPES).nullish() }), args);
  return ctx.tx(async (trx) => {
    const items: TrashItem[] = [];
    for (const t of type ? [type] : TRASH_TYPES) {
      const title = TITLE[t];
      const project = PROJECT_COLUMN[t];
      const rows = (await trx(TABLE[t])
        .where({ workspace_id: caller.workspaceId })
        .whereNotNull('deleted_at')
        .orderBy('deleted_at', 'desc')
        .limit(TRASH_LIMIT)
        .select('id', `${title} as title`, 'deleted_at', ...(project ? [`${project} as project_id`] : []))) as Array<{
        id: string;
        title: string;
        deleted_at: Date;
        project_id?: string;
      }>;
      items.push(
        ...rows.map((r) => ({
          type: t,
          id: r.id,
          title: r.title,
          projectId: r.project_id ?? null,
          deletedAt: r.deleted_at,
        })),
      );
    }
    return items.sort((a, b) => b.deletedAt.getTime() - a.deletedAt.getTime()).slice(0, TRASH_LIMIT);
  });
}

async function assertParentLive(trx: Knex.Transaction, table: string, id: string | null, what: string): Promise<void> {
  if (!id) return;
  const parent = (await trx(table).where({ id }).first('deleted_at')) as { deleted_at: Date | null } | undefined;
  if (parent?.deleted_at) throw new AppError('INVALID_OPERATION', `Restore its ${what} first.`, { field: 'id' });
}

/** An address is unique among the people out of the trash, so a restore must not take one in use. */
async function assertEmailFreeFor(
  trx: Knex.Transaction,
  workspaceId: string,
  id: string,
  email: string | null,
): Promise<void> {
  if (!email) return;
  const taken = await trx('people')
    .where({ workspace_id: workspaceId })
    .whereNull('deleted_at')
    .whereNot({ id })
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id');
  if (taken) {
    throw new AppError(
      'INVALID_OPERATION',
      `Another person in this workspace now has the email address ${email}. Change or delete that person first.`,
      { field: 'id' },
    );
  }
}

export async function restoreItem(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:delete');
  const { type, id } = validate(z.object({ type: z.enum(TRASH_TYPES), id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    if (type === 'FOLDER') {
      await restoreFolder(trx, caller.workspaceId, id);
      return true;
    }
    const row = (await trx(TABLE[type])
      .where({ id, workspace_id: caller.workspaceId })
      .whereNotNull('deleted_at')
      .first()) as { project_id?: string; note_id?: string | null; email?: string | null } | undefined;
    if (!row) throw notFound('That item in the trash');
    if (type === 'PROJECT') await assertProjectRoom(trx, caller.workspaceId);
    else if (type === 'PERSON') await assertEmailFreeFor(trx, caller.workspaceId, id, row.email ?? null);
    else await assertParentLive(trx, 'projects', row.project_id ?? null, 'project');
    if (type === 'HIGHLIGHT') await assertParentLive(trx, 'notes', row.note_id ?? null, 'note');
    await trx(TABLE[type]).where({ id }).update({ deleted_at: null, updated_at: trx.fn.now() });
    return true;
  });
}
