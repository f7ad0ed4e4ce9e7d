import type { Knex } from 'knex';
import type { EventBus, PublishedEvent } from '@fieldbook/core';
import type { ProjectRow } from '../projects/access.ts';

/**
 * The domain events research publishes (001 §3.1), each inside the transaction of its change, so
 * an event exists exactly when the change committed. Payloads carry the ids of the event's context
 * objects and the values of its configure fields (`project.id`).
 */
export interface DocumentRef {
  id: string;
  title: string;
  created_by?: string | null;
}

export const noteCreatedEvent = (
  workspaceId: string,
  note: DocumentRef,
  project: Pick<ProjectRow, 'id' | 'title'>,
): PublishedEvent => ({
  event: 'note:created',
  workspaceId,
  payload: {
    note: { id: note.id, title: note.title },
    project: { id: project.id, title: project.title },
    createdBy: note.created_by ?? null,
  },
});

export const publishNoteCreated = (
  events: EventBus,
  trx: Knex.Transaction,
  workspaceId: string,
  note: DocumentRef,
  project: Pick<ProjectRow, 'id' | 'title'>,
) => {
  const { event, payload } = noteCreatedEvent(workspaceId, note, project);
  return events.publish(event, workspaceId, payload, trx);
};

/**
 * `note:contentChanged`: a note's text was edited. Not an automation trigger (no catalog entry):
 * it is what the note's AI steps listen to, debounced, so each burst of edits is read once.
 */
export const NOTE_CONTENT_CHANGED = 'note:contentChanged';
export const publishNoteContentChanged = (
  events: EventBus,
  trx: Knex.Transaction,
  workspaceId: string,
  noteId: string,
) => events.publish(NOTE_CONTENT_CHANGED, workspaceId, { note: { id: noteId } }, trx);

export const publishInsightPublished = (
  events: EventBus,
  trx: Knex.Transaction,
  workspaceId: string,
  insight: DocumentRef,
  project: Pick<ProjectRow, 'id' | 'title'>,
  by: string,
) =>
  events.publish(
    'insight:published',
    workspaceId,
    {
      insight: { id: insight.id, title: insight.title },
      project: { id: project.id, title: project.title },
      publishedBy: by,
    },
    trx,
  );

/** Statuses are stored upper-case; the event carries them as 001 §4 names them. */
export const publishProjectCreated = (
  events: EventBus,
  trx: Knex.Transaction,
  project: Pick<ProjectRow, 'id' | 'title' | 'status' | 'workspace_id' | 'created_by'>,
  tags: readonly string[],
) =>
  events.publish(
    'project:created',
    project.workspace_id,
    {
      project: { id: project.id },
      tags: [...tags],
      status: project.status.toLowerCase(),
      title: project.title,
      createdBy: project.created_by,
    },
    trx,
  );
