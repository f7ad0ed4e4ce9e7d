import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { EventBus } from '@fieldbook/core';
import type { Caller } from '../projects/access.ts';
import { FOLLOW_NOTIFICATION_TYPES, publishToFollowers } from './fanout.ts';

/** What was tagged: a highlight (in its note) or a note itself. */
export interface Tagged {
  kind: 'HIGHLIGHT' | 'NOTE';
  id: string;
  projectId: string;
  /** The note the highlight is in, or the note tagged; followers open it. */
  noteId: string | null;
}

/**
 * Tells the followers of tags that were just applied (not those the item already had): one event
 * for the whole call, so a person following several of the tags hears of it once, naming them.
 */
export async function publishTagsApplied(
  events: EventBus,
  trx: Knex.Transaction,
  caller: Caller & { name: string },
  tagged: Tagged,
  newTagIds: readonly string[],
): Promise<void> {
  if (!newTagIds.length) return;
  const tags = (await trx('tags').whereIn('id', newTagIds).orderBy('title').select('id', 'title')) as Array<{
    id: string;
    title: string;
  }>;
  const note = tagged.noteId
    ? ((await trx('notes').where({ id: tagged.noteId }).first('title')) as { title: string } | undefined)
    : undefined;
  await publishToFollowers(events, trx, {
    workspaceId: caller.workspaceId,
    projectId: tagged.projectId,
    objects: tags.map((t) => ({ type: 'TAG', id: t.id })),
    option: 'allChanges',
    type: FOLLOW_NOTIFICATION_TYPES.tagApplied,
    dedupeKey: `tag-applied:${randomUUID()}`,
    payload: {
      target: tagged.kind,
      ...(tagged.noteId
        ? { objectType: 'NOTE', objectId: tagged.noteId, objectTitle: note?.title || 'Untitled note' }
        : {}),
      projectId: tagged.projectId,
      tagIds: tags.map((t) => t.id),
      tagTitles: tags.map((t) => t.title),
      actorId: caller.userId,
      actorName: caller.name,
    },
    actorId: caller.userId,
  });
}
