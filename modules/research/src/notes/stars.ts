import type { Knex } from 'knex';
import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import { projectFor } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';

export const STARRABLE = ['PROJECT', 'NOTE', 'INSIGHT'] as const;
export type StarrableType = (typeof STARRABLE)[number];

export async function isStarred(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string,
  type: StarrableType,
  id: string,
): Promise<boolean> {
  return Boolean(
    await trx('stars')
      .where({ workspace_id: workspaceId, user_id: userId, object_type: type, object_id: id })
      .first('object_id'),
  );
}

/** Stars or unstars an item for the caller alone; anyone who can read the item may star it. */
export async function setStarred(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:read');
  const { type, id, starred } = validate(
    z.object({ type: z.enum(STARRABLE), id: idSchema(), starred: z.boolean() }),
    args,
  );
  return ctx.tx(async (trx) => {
    if (type === 'PROJECT') await projectFor(trx, caller, id, 'read');
    else {
      const item = (await trx(type === 'NOTE' ? 'notes' : 'insights')
        .where({ id, workspace_id: caller.workspaceId })
        .whereNull('deleted_at')
        .first('project_id')) as { project_id: string } | undefined;
      if (!item) throw notFound(type === 'NOTE' ? 'That note' : 'That insight');
      await projectFor(trx, caller, item.project_id, 'read').catch(() => {
        throw notFound(type === 'NOTE' ? 'That note' : 'That insight');
      });
    }
    const key = { workspace_id: caller.workspaceId, user_id: caller.userId, object_type: type, object_id: id };
    if (starred)
      await trx('stars').insert(key).onConflict(['workspace_id', 'user_id', 'object_type', 'object_id']).ignore();
    else await trx('stars').where(key).delete();
    return starred;
  });
}
