import type { Knex } from 'knex';
import type { EventBus, PublishedEvent } from '@fieldbook/core';
import { FOLLOW_ACTIVITY_EVENT, FOLLOW_NOTIFICATION_TYPES, publishToFollowers, type FollowerChange } from './fanout.ts';

/**
 * The "all changes" option (000 §3) beyond comments and published insights: what it brings for
 * each kind of followed object. The follow menu and the settings page say the same in words.
 * - a project: each note and insight added to it;
 * - an insight: edits to it, at most one notification a day (an editor saves as they type);
 * - a tag: each time it is applied to a highlight or a note (see tag-applied.ts).
 */
interface Item {
  id: string;
  project_id: string;
  title: string;
  created_at?: Date;
  updated_at?: Date;
}
interface Actor {
  userId: string;
  workspaceId: string;
  name: string;
}

export async function publishItemAdded(
  events: EventBus,
  trx: Knex.Transaction,
  actor: Actor,
  kind: 'NOTE' | 'INSIGHT',
  item: Item,
  projectTitle: string,
): Promise<void> {
  await publishToFollowers(events, trx, itemAdded(actor, kind, item, projectTitle));
}

/** The same as an event to publish with others (notes made in bulk). */
export const itemAddedEvent = (
  actor: Actor,
  kind: 'NOTE' | 'INSIGHT',
  item: Item,
  projectTitle: string,
): PublishedEvent => ({
  event: FOLLOW_ACTIVITY_EVENT,
  workspaceId: actor.workspaceId,
  payload: { ...itemAdded(actor, kind, item, projectTitle) },
});

function itemAdded(actor: Actor, kind: 'NOTE' | 'INSIGHT', item: Item, projectTitle: string): FollowerChange {
  return {
    workspaceId: actor.workspaceId,
    projectId: item.project_id,
    objects: [{ type: 'PROJECT', id: item.project_id }],
    option: 'allChanges',
    type: FOLLOW_NOTIFICATION_TYPES.change,
    dedupeKey: `added:${item.id}`,
    payload: {
      change: 'ADDED',
      objectType: kind,
      objectId: item.id,
      objectTitle: item.title || (kind === 'NOTE' ? 'Untitled note' : 'Untitled insight'),
      projectId: item.project_id,
      projectTitle,
      actorId: actor.userId,
      actorName: actor.name,
    },
    actorId: actor.userId,
  };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * An insight edited: published only for its first edit of a UTC day (the row's last change is
 * older, or is its creation), so followers hear once a day at most.
 */
export async function publishInsightEdited(
  events: EventBus,
  trx: Knex.Transaction,
  actor: Actor,
  before: Item,
  after: Item,
  now = new Date(),
): Promise<void> {
  const last = before.updated_at ? new Date(before.updated_at) : null;
  const neverEdited = last && before.created_at && last.getTime() === new Date(before.created_at).getTime();
  if (last && !neverEdited && day(last) === day(now)) return;
  await publishToFollowers(events, trx, {
    workspaceId: actor.workspaceId,
    projectId: after.project_id,
    objects: [{ type: 'INSIGHT', id: after.id }],
    option: 'allChanges',
    type: FOLLOW_NOTIFICATION_TYPES.change,
    dedupeKey: `edited:${after.id}:${day(now)}`,
    payload: {
      change: 'EDITED',
      objectType: 'INSIGHT',
      objectId: after.id,
      objectTitle: after.title || 'Untitled insight',
      projectId: after.project_id,
      actorId: actor.userId,
      actorName: actor.name,
    },
    actorId: actor.userId,
  });
}
