import type { Knex } from 'knex';
import { z } from 'zod';
import {
  badInput,
  notFound,
  validate,
  type EventBus,
  type PermissionLevel,
  type RequestContext,
} from '@fieldbook/core';
import { publishTagsApplied } from '../follows/tag-applied.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { rethrowAs, tagsFor } from './access.ts';
import { idList, uuid } from './inputs.ts';
import { tagLoaders } from './loaders.ts';
import { tagView, type TagRow, type TagView } from './rows.ts';

/** At most this many tags change in one call. */
const MAX_TAGS_PER_CALL = 100;

const taggingArgs = z.object({
  highlightId: uuid('highlightId'),
  tagIds: idList('tagIds').refine(
    (ids) => ids.length <= MAX_TAGS_PER_CALL,
    `At most ${MAX_TAGS_PER_CALL} tags can be changed at once.`,
  ),
});

interface HighlightRef {
  id: string;
  project_id: string;
  note_id: string | null;
}

async function highlightFor(
  trx: Knex.Transaction,
  caller: Caller,
  id: string,
  needed: PermissionLevel,
): Promise<HighlightRef> {
  const highlight = (await trx('highlights')
    .where({ id, workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .first('id', 'project_id', 'note_id')) as HighlightRef | undefined;
  if (!highlight) throw notFound('That highlight');
  await projectFor(trx, caller, highlight.project_id, needed).catch(rethrowAs('That highlight'));
  return highlight;
}

async function tagsOfHighlight(trx: Knex.Transaction, highlightId: string): Promise<TagView[]> {
  const rows = (await trx('tags as t')
    .join('highlight_tags as ht', 'ht.tag_id', 't.id')
    .where('ht.highlight_id', highlightId)
    .orderBy([{ column: 'ht.created_at' }, { column: 't.title' }])
    .select('t.*')) as TagRow[];
  return rows.map(tagView);
}

export async function highlightTags(ctx: RequestContext, args: unknown): Promise<TagView[]> {
  const { highlightId } = validate(z.object({ highlightId: uuid('highlightId') }), args);
  return tagLoaders(ctx).tagsOfHighlight.load(highlightId);
}

/**
 * Tags a highlight; tags it already has stay as they are. Followers of the tags newly applied hear
 * of it. Answers all of the highlight's tags.
 */
export async function tagHighlight(ctx: RequestContext, events: EventBus, args: unknown): Promise<TagView[]> {
  const caller = callerOf(ctx, 'tags:update');
  const { highlightId, tagIds } = validate(taggingArgs, args);
  return ctx.tx(async (trx) => {
    const highlight = await highlightFor(trx, caller, highlightId, 'write');
    for (const { board } of await tagsFor(trx, caller, tagIds, 'read')) {
      if (board.project_id && board.project_id !== highlight.project_id) {
        throw badInput('tagIds', 'A tag from another project’s tag board cannot be applied to this highlight.');
      }
    }
    if (tagIds.length) {
      const added = (await trx('highlight_tags')
        .insert(
          tagIds.map((tagId) => ({
            workspace_id: caller.workspaceId,
            highlight_id: highlight.id,
            tag_id: tagId,
            created_by: caller.userId,
          })),
        )
        .onConflict(['highlight_id', 'tag_id'])
        .ignore()
        .returning('tag_id')) as Array<{ tag_id: string }>;
      const tagged = {
        kind: 'HIGHLIGHT' as const,
        id: highlight.id,
        projectId: highlight.project_id,
        noteId: highlight.note_id,
      };
      await publishTagsApplied(
        events,
        trx,
        { ...caller, name: ctx.requireViewer().name },
        tagged,
        added.map((a) => a.tag_id),
      );
    }
    return tagsOfHighlight(trx, highlight.id);
  });
}

/** Takes tags off a highlight; answers the tags it keeps. */
export async function untagHighlight(ctx: RequestContext, args: unknown): Promise<TagView[]> {
  const caller = callerOf(ctx, 'tags:update');
  const { highlightId, tagIds } = validate(taggingArgs, args);
  return ctx.tx(async (trx) => {
    const highlight = await highlightFor(trx, caller, highlightId, 'write');
    await tagsFor(trx, caller, tagIds, 'read');
    await trx('highlight_tags').where({ highlight_id: highlight.id }).whereIn('tag_id', tagIds).delete();
    return tagsOfHighlight(trx, highlight.id);
  });
}
