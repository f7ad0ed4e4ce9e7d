import type { Knex } from 'knex';
import { z } from 'zod';
import {
  forbidden,
  notFound,
  validate,
  type EventBus,
  type JobQueue,
  type Permission,
  type RequestContext,
} from '@fieldbook/core';
import { documentFor, encodeCursor, type DocumentKind, type DocumentRow } from '../notes/documents.ts';
import type { Caller } from '../projects/access.ts';
import { callerOf, isManager } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { decodeIdCursor, pageSize } from '../people/inputs.ts';
import { rethrowAs } from '../tags/access.ts';
import { excerpt, mentionsIn } from './mentions.ts';
import { assertMentionable, enqueueEmails, notifyComment, type CommentObjectType } from './notify.ts';
import { publishCommentCreated } from './created.ts';

/**
 * Comments on notes and insights. Anyone who can read the object may comment (a comment does not
 * change it, so viewers may too); only the author edits a comment; the author or a manager deletes it.
 */
export const COMMENT_LIMITS = { body: 10_000 } as const;

export const OBJECT_TYPES = ['NOTE', 'INSIGHT'] as const;

const OBJECTS: Record<
  CommentObjectType,
  { kind: DocumentKind; column: 'note_id' | 'insight_id'; read: Permission; untitled: string }
> = {
  NOTE: { kind: 'notes', column: 'note_id', read: 'notes:read', untitled: 'Untitled note' },
  INSIGHT: { kind: 'insights', column: 'insight_id', read: 'insights:read', untitled: 'Untitled insight' },
};

export interface CommentRow {
  id: string;
  workspace_id: string;
  project_id: string;
  note_id: string | null;
  insight_id: string | null;
  body: string;
  mentioned_user_ids: string[];
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  edited_at: Date | null;
}

export interface CommentView extends CommentRow {
  caller: Caller;
}

export const objectTypeOf = (row: CommentRow): CommentObjectType => (row.note_id ? 'NOTE' : 'INSIGHT');

const body = z
  .string({ error: 'Write a comment.' })
  .trim()
  .min(1, 'Write a comment.')
  .max(COMMENT_LIMITS.body, `A comment can be at most ${COMMENT_LIMITS.body.toLocaleString('en-US')} characters long.`);

const objectType = z.enum(OBJECT_TYPES, { error: 'objectType must be NOTE or INSIGHT.' });

/** The object commented on, if the caller can read it; NOT_FOUND otherwise. */
async function objectFor(
  trx: Knex.Transaction,
  caller: Caller,
  type: CommentObjectType,
  id: string,
): Promise<DocumentRow> {
  return documentFor(trx, OBJECTS[type].kind, caller, id, 'read');
}

async function projectPermissions(trx: Knex.Transaction, projectId: string): Promise<unknown> {
  return ((await trx('projects').where({ id: projectId }).first('permissions')) as { permissions: unknown })
    .permissions;
}

/** A comment the caller can see (its object readable and out of the trash); NOT_FOUND otherwise. */
async function commentFor(
  trx: Knex.Transaction,
  ctx: RequestContext,
  id: string,
): Promise<{ caller: Caller; comment: CommentRow; object: DocumentRow }> {
  const { workspace } = ctx.authorize('notes:read');
  const comment = (await trx('comments').where({ id, workspace_id: workspace.id }).first()) as CommentRow | undefined;
  if (!comment) throw notFound('That comment');
  const type = objectTypeOf(comment);
  const caller = callerOf(ctx, OBJECTS[type].read);
  const object = await objectFor(trx, caller, type, (comment.note_id ?? comment.insight_id)!).catch(
    rethrowAs('That comment'),
  );
  return { caller, comment, object };
}

function payloadOf(
  caller: Caller,
  actorName: string,
  type: CommentObjectType,
  object: DocumentRow,
  comment: CommentRow,
) {
  return {
    commentId: comment.id,
    objectType: type,
    objectId: object.id,
    objectTitle: object.title || OBJECTS[type].untitled,
    projectId: object.project_id,
    actorId: caller.userId,
    actorName,
    excerpt: excerpt(comment.body),
  };
}

const createSchema = z.object({ input: z.object({ objectType, objectId: idSchema('objectId'), body }) });

/**
 * Saves a comment and publishes it in the same transaction; its notifications and emails are
 * written by the `comment:created` subscriber, so the request's work does not grow with the number
 * of people involved or following.
 */
export async function createComment(ctx: RequestContext, events: EventBus, args: unknown): Promise<CommentView> {
  const { input } = validate(createSchema, args);
  const caller = callerOf(ctx, OBJECTS[input.objectType].read);
  const actorName = ctx.requireViewer().name;
  const view = await ctx.tx(async (trx) => {
    const object = await objectFor(trx, caller, input.objectType, input.objectId);
    const mentions = mentionsIn(input.body);
    if (mentions.length)
      await assertMentionable(trx, caller.workspaceId, await projectPermissions(trx, object.project_id), mentions);
    const mentioned = mentions.map((m) => m.userId);
    const [row] = (await trx('comments')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: object.project_id,
        [OBJECTS[input.objectType].column]: object.id,
        body: input.body,
        mentioned_user_ids: mentioned,
        created_by: caller.userId,
      })
      .returning('*')) as CommentRow[];
    await publishCommentCreated(events, trx, {
      workspaceId: caller.workspaceId,
      payload: payloadOf(caller, actorName, input.objectType, object, row!),
      mentioned,
    });
    return { ...row!, caller };
  });
  return view;
}

const updateSchema = z.object({ id: idSchema(), input: z.object({ body }) });

/** Only the author edits a comment; members mentioned for the first time are notified. */
export async function updateComment(ctx: RequestContext, jobs: JobQueue, args: unknown): Promise<CommentView> {
  const { id, input } = validate(updateSchema, args);
  const actorName = ctx.requireViewer().name;
  const view = await ctx.tx(async (trx) => {
    const { caller, comment, object } = await commentFor(trx, ctx, id);
    if (comment.created_by !== caller.userId) throw forbidden('You can only edit your own comments.');
    const permissions = await projectPermissions(trx, object.project_id);
    const mentions = mentionsIn(input.body);
    await assertMentionable(trx, caller.workspaceId, permissions, mentions);
    const mentioned = mentions.map((m) => m.userId);
    const [row] = (await trx('comments')
      .where({ id })
      .update({ body: input.body, mentioned_user_ids: mentioned, edited_at: trx.fn.now(), updated_at: trx.fn.now() })
      .returning('*')) as CommentRow[];
    const added = mentioned.filter((m) => !comment.mentioned_user_ids.includes(m));
    const type = objectTypeOf(comment);
    const { emails } = await notifyComment(trx, {
      workspaceId: caller.workspaceId,
      projectPermissions: permissions,
      payload: payloadOf(caller, actorName, type, object, row!),
      mentioned: added,
      involved: [],
      dedupeKey: `mention:${row!.id}`,
    });
    await enqueueEmails(trx, jobs, emails);
    return { ...row!, caller };
  });
  return view;
}

/** The author, or a manager or admin, deletes a comment for good. */
export async function deleteComment(ctx: RequestContext, args: unknown): Promise<boolean> {
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const { caller, comment } = await commentFor(trx, ctx, id);
    if (comment.created_by !== caller.userId && !isManager(caller))
      throw forbidden('You can only delete your own comments.');
    await trx('comments').where({ id }).delete();
    return true;
  });
}

const listSchema = z.object({
  objectType,
  objectId: idSchema('objectId'),
  first: pageSize.nullish(),
  after: z.string().nullish(),
});

/** An object's comments, oldest first, a page at a time (first: 1..200, default 50). */
export async function listComments(
  ctx: RequestContext,
  args: unknown,
): Promise<{ nodes: CommentView[]; endCursor: string | null; hasNextPage: boolean }> {
  const input = validate(listSchema, args);
  const caller = callerOf(ctx, OBJECTS[input.objectType].read);
  const first = input.first ?? 50;
  const after = decodeIdCursor(input.after);
  return ctx.tx(async (trx) => {
    const object = await objectFor(trx, caller, input.objectType, input.objectId);
    const q = trx('comments')
      .where({ workspace_id: caller.workspaceId, [OBJECTS[input.objectType].column]: object.id })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(first + 1);
    if (after) q.whereRaw('(created_at, id) > (select created_at, id from comments where id = ?)', [after]);
    const rows = (await q) as CommentRow[];
    const nodes = rows.slice(0, first).map((r) => ({ ...r, caller }));
    const hasNextPage = rows.length > first;
    return { nodes, hasNextPage, endCursor: hasNextPage ? encodeCursor(nodes[nodes.length - 1]!.id) : null };
  });
}

/** The author may edit; the author or a manager may delete. */
export const canEdit = (c: CommentView): boolean => c.created_by === c.caller.userId;
export const canDelete = (c: CommentView): boolean => canEdit(c) || isManager(c.caller);
