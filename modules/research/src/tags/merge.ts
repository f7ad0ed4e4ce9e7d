import { z } from 'zod';
import { badInput, validate, type RequestContext } from '@fieldbook/core';
import { callerOf } from '../projects/caller.ts';
import { tagFor, tagsFor } from './access.ts';
import { idList, uuid } from './inputs.ts';
import { tagView, type TagRow, type TagView } from './rows.ts';
import { assertTaggingsFit } from './tags.ts';

const mergeArgs = z.object({
  sourceIds: idList('sourceIds').refine((ids) => ids.length >= 1, 'Choose at least one tag to merge.'),
  targetId: uuid('targetId'),
});

/**
 * Merges tags into one (Manager+, 002 §6): every highlight tagged with a source gets the target
 * instead, then the sources are deleted, all in one transaction.
 */
export async function mergeTags(ctx: RequestContext, args: unknown): Promise<TagView> {
  const caller = callerOf(ctx, 'tags:manage');
  const { sourceIds, targetId } = validate(mergeArgs, args);
  if (sourceIds.includes(targetId.toLowerCase())) throw badInput('sourceIds', 'A tag cannot be merged into itself.');
  return ctx.tx(async (trx) => {
    const { tag: target, board } = await tagFor(trx, caller, targetId, 'write');
    await tagsFor(trx, caller, sourceIds, 'write');
    await assertTaggingsFit(trx, sourceIds, board.project_id, 'targetId');
    await trx.raw(
      `insert into highlight_tags (workspace_id, highlight_id, tag_id, created_by)
       select distinct on (highlight_id) workspace_id, highlight_id, ?::uuid, created_by
       from highlight_tags where tag_id = any(?::uuid[])
       on conflict (highlight_id, tag_id) do nothing`,
      [target.id, sourceIds],
    );
    await trx('tags').whereIn('id', sourceIds).delete();
    const [row] = (await trx('tags')
      .where({ id: target.id })
      .update({ updated_at: trx.fn.now() })
      .returning('*')) as TagRow[];
    return tagView(row!);
  });
}
