import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, validate, type EventBus, type RequestContext } from '@fieldbook/core';
import { publishTagsApplied } from '../follows/tag-applied.ts';
import type { Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { documentFor } from '../notes/documents.ts';
import { tagsFor } from './access.ts';
import { idList, uuid } from './inputs.ts';
import { tagView, type TagRow, type TagView } from './rows.ts';

/** At most this many tags change in one call. */
const MAX_TAGS_PER_CALL = 100;

const taggingArgs = z.object({
  noteId: uuid('noteId'),
  tagIds: idList('tagIds').refine(
    (ids) => ids.length <= MAX_TAGS_PER_CALL,
    `At most ${MAX_TAGS_PER_CALL} tags can be changed at once.`,
  ),
});

export async function tagsOfNote(trx: Knex.Transaction, noteId: string): Promise<TagView[]> {
  const rows = (await trx('tags as t')
    .join('note_tags as nt', 'nt.tag_id', 't.id')
    .where('nt.note_id', noteId)
    .orderBy([{ column: 'nt.created_at' }, { column: 't.title' }])
    .select('t.*')) as TagRow[];
  return rows.map(tagView);
}

/**
 * Tags a note as `caller` inside `trx`; tags it already has stay. Tags of another project's board
 * are refused. Followers of the tags newly applied hear of it.
 */
export async function applyNoteTags(
  trx: Knex.Transaction,
  events: EventBus,
  caller: Caller & { name: string },
  noteId: string,
  tagIds: readonly string[],
): Promise<TagView[]> {
  const note = await documentFor(trx, 'notes', caller, noteId, 'write');
  for (const { board } of await tagsFor(trx, caller, tagIds, 'read')) {
    if (board.project_id && board.project_id !== note.project_id)
      throw badInput('tagIds', 'A tag from another project’s tag board cannot be applied to this note.');
  }
  if (tagIds.length) {
    const added = (await trx('note_tags')
      .insert(
        tagIds.map((tagId) => ({
          workspace_id: caller.workspaceId,
          note_id: note.id,
          tag_id: tagId,
          created_by: caller.userId,
        })),
      )
      .onConflict(['note_id', 'tag_id'])
      .ignore()
      .returning('tag_id')) as Array<{ tag_id: string }>;
    await publishTagsApplied(
      events,
      trx,
      caller,
      { kind: 'NOTE', id: note.id, projectId: note.project_id, noteId: note.id },
      added.map((a) => a.tag_id),
    );
  }
  return tagsOfNote(trx, note.id);
}

export async function tagNote(ctx: RequestContext, events: EventBus, args: unknown): Promise<TagView[]> {
  const caller = callerOf(ctx, 'tags:update');
  const { noteId, tagIds } = validate(taggingArgs, args);
  return ctx.tx((trx) => applyNoteTags(trx, events, { ...caller, name: ctx.requireViewer().name }, noteId, tagIds));
}

export async function untagNote(ctx: RequestContext, args: unknown): Promise<TagView[]> {
  const caller = callerOf(ctx, 'tags:update');
  const { noteId, tagIds } = validate(taggingArgs, args);
  return ctx.tx(async (trx) => {
    const note = await documentFor(trx, 'notes', caller, noteId, 'write');
    await tagsFor(trx, caller, tagIds, 'read');
    await trx('note_tags').where({ note_id: note.id }).whereIn('tag_id', tagIds).delete();
    return tagsOfNote(trx, note.id);
  });
}
