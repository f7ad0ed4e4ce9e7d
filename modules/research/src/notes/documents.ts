import type { Knex } from 'knex';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import {
  badInput,
  forbidden,
  notFound,
  publishAll,
  validate,
  type EventBus,
  type Permission,
  type RequestContext,
} from '@fieldbook/core';
import {
  noteCreatedEvent,
  publishInsightPublished,
  publishNoteContentChanged,
  publishNoteCreated,
} from '../events/publish.ts';
import { FOLLOW_NOTIFICATION_TYPES, publishToFollowers } from '../follows/fanout.ts';
import { itemAddedEvent, publishInsightEdited, publishItemAdded } from '../follows/changes.ts';
import { moveBetween, rankForNewItem, type RankedList } from '../ranks/reorder.ts';
import { rankAtEnd } from '../ranks/ranks.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf, isManager } from '../projects/caller.ts';
import { idSchema, moveSchema, optionalTitle } from '../projects/inputs.ts';
import { CONTENT_LIMITS } from '../projects/limits.ts';
import { plainText, richTextSchema, type RichTextNode } from './rich-text.ts';
import { rowDetails, type ViewRowTag } from '../views/row-details.ts';
import { tagsFor } from '../tags/access.ts';

/**
 * Notes and insights share one shape (an insight adds publishing and a summary), so both go
 * through these functions with their kind.
 */
export type DocumentKind = 'notes' | 'insights';

const LABEL: Record<
  DocumentKind,
  { one: string; permissions: { read: Permission; create: Permission; update: Permission; delete: Permission } }
> = {
  notes: {
    one: 'note',
    permissions: { read: 'notes:read', create: 'notes:create', update: 'notes:update', delete: 'notes:delete' },
  },
  insights: {
    one: 'insight',
    permissions: {
      read: 'insights:read',
      create: 'insights:create',
      update: 'insights:update',
      delete: 'insights:delete',
    },
  },
};

export interface DocumentRow {
  id: string;
  workspace_id: string;
  project_id: string;
  title: string;
  content: unknown;
  content_text: string;
  archived: boolean;
  locked: boolean;
  rank: number;
  published_at?: Date | null;
  summary?: unknown;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface DocumentView extends DocumentRow {
  kind: DocumentKind;
  caller: Caller;
  /** What a list shows beside the row, read for its whole page at once (absent outside lists). */
  listed?: { tags: ViewRowTag[]; highlightCount: number };
}

export const ORDERS = ['RANK', 'CREATED_DESC', 'CREATED_ASC', 'TITLE_ASC', 'UPDATED_DESC'] as const;
type Order = (typeof ORDERS)[number];

/** The column and direction each order reads; the id breaks ties so the keyset is total. */
const ORDER_COLUMNS: Record<Order, [column: string, direction: 'asc' | 'desc']> = {
  RANK: ['rank', 'asc'],
  CREATED_DESC: ['created_at', 'desc'],
  CREATED_ASC: ['created_at', 'asc'],
  TITLE_ASC: ['title', 'asc'],
  UPDATED_DESC: ['updated_at', 'desc'],
};

/** Filters a list accepts: words to find in the title or text, and tags every row must carry one of. */
export const LIST_FILTER_LIMITS = { search: 200, tagIds: 20 } as const;

const listOf = (kind: DocumentKind, workspaceId: string, projectId: string): RankedList => ({
  table: kind,
  scope: { workspace_id: workspaceId, project_id: projectId },
});
const view =
  (kind: DocumentKind, caller: Caller) =>
  (row: DocumentRow): DocumentView => ({ ...row, kind, caller });
const what = (kind: DocumentKind) => `That ${LABEL[kind].one}`;

/** The item if the caller may use its project at `needed`; NOT_FOUND when it is in the trash, elsewhere or hidden. */
export async function documentFor(
  trx: Knex.Transaction,
  kind: DocumentKind,
  caller: Caller,
  id: string,
  needed: 'read' | 'write',
): Promise<DocumentRow> {
  const row = (await trx(kind).where({ id, workspace_id: caller.workspaceId }).whereNull('deleted_at').first()) as
    | DocumentRow
    | undefined;
  if (!row) throw notFound(what(kind));
  try {
    await projectFor(trx, caller, row.project_id, needed);
  } catch (error) {
    if (error instanceof Error && 'errorCode' in error && error.errorCode === 'NOT_FOUND') throw notFound(what(kind));
    throw error;
  }
  return row;
}

const contentFields = (kind: DocumentKind) => ({
  title: optionalTitle(LABEL[kind].one).optional(),
  content: richTextSchema('content').nullable().optional(),
  archived: z.boolean().optional(),
  locked: z.boolean().optional(),
  ...(kind === 'insights' ? { summary: richTextSchema('summary').nullable().optional() } : {}),
});

type ContentInput = {
  title?: string;
  content?: RichTextNode | null;
  archived?: boolean;
  locked?: boolean;
  summary?: RichTextNode | null;
};

function contentPatch(input: ContentInput): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.content !== undefined) {
    patch.content = input.content === null ? null : JSON.stringify(input.content);
    patch.content_text = plainText(input.content);
  }
  if (input.archived !== undefined) patch.archived = input.archived;
  if (input.locked !== undefined) patch.locked = input.locked;
  if (input.summary !== undefined) patch.summary = input.summary === null ? null : JSON.stringify(input.summary);
  return patch;
}

/** Only managers and admins may lock or unlock, or edit what is locked. */
function assertMayTouchLock(kind: DocumentKind, caller: Caller, locked: boolean | undefined, current: boolean): void {
  if (isManager(caller)) return;
  if (current) throw forbidden(`This ${LABEL[kind].one} is locked; only managers and admins can edit it.`);
  if (locked !== undefined && locked !== current)
    throw forbidden(`Only managers and admins can lock a ${LABEL[kind].one}.`);
}

/** Creates a note or insight; a note's `note:created` is published with it. */
export async function createDocument(
  ctx: RequestContext,
  kind: DocumentKind,
  args: unknown,
  events: EventBus,
): Promise<DocumentView> {
  const caller = callerOf(ctx, LABEL[kind].permissions.create);
  const { input } = validate(
    z.object({ input: z.object({ projectId: idSchema('projectId'), ...contentFields(kind) }) }),
    args,
  );
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, input.projectId, 'write');
    if (input.locked) assertMayTouchLock(kind, caller, true, false);
    const rank = await rankForNewItem(trx, listOf(kind, caller.workspaceId, input.projectId));
    const [row] = (await trx(kind)
      .insert({
        workspace_id: caller.workspaceId,
        project_id: input.projectId,
        title: '',
        content_text: '',
        ...contentPatch(input as ContentInput),
        rank,
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('*')) as DocumentRow[];
    if (kind === 'notes') await publishNoteCreated(events, trx, caller.workspaceId, row!, project);
    await publishItemAdded(
      events,
      trx,
      { ...caller, name: ctx.requireViewer().name },
      kind === 'notes' ? 'NOTE' : 'INSIGHT',
      row!,
      project.title,
    );
    return view(kind, caller)(row!);
  });
}

/**
 * Creates many notes in the caller's open transaction, as createDocument would one by one: each
 * draft checked the same way, each project checked once, the rows ranked at their list's end and
 * inserted in one statement, and their `note:created` and follower events published together.
 * Answers the rows in the order of the drafts.
 */
export async function createNotesIn(
  trx: Knex.Transaction,
  ctx: RequestContext,
  drafts: ReadonlyArray<{ projectId: string; title: string; content: unknown }>,
  events: EventBus,
): Promise<DocumentRow[]> {
  const caller = callerOf(ctx, LABEL.notes.permissions.create);
  if (!drafts.length) return [];
  const schema = z.object({ input: z.object({ projectId: idSchema('projectId'), ...contentFields('notes') }) });
  const inputs = drafts.map((d) => validate(schema, { input: d }).input);
  // A draft may ask for a locked note as createDocument's input may: the same check applies.
  if (inputs.some((i) => i.locked)) assertMayTouchLock('notes', caller, true, false);
  const projects = new Map<string, Awaited<ReturnType<typeof projectFor>>>();
  const next = new Map<string, number>();
  for (const projectId of new Set(inputs.map((i) => i.projectId))) {
    projects.set(projectId, await projectFor(trx, caller, projectId, 'write'));
    next.set(projectId, await rankForNewItem(trx, listOf('notes', caller.workspaceId, projectId)));
  }
  // Ids given here, so that rows are matched to drafts without relying on RETURNING's order.
  const ids = inputs.map(() => randomUUID());
  const inserted = (await trx('notes')
    .insert(
      inputs.map((input, i) => {
        const rank = next.get(input.projectId)!;
        next.set(input.projectId, rankAtEnd(rank));
        return {
          id: ids[i],
          workspace_id: caller.workspaceId,
          project_id: input.projectId,
          title: '',
          content_text: '',
          ...contentPatch(input as ContentInput),
          rank,
          created_by: caller.userId,
          updated_by: caller.userId,
        };
      }),
    )
    .returning('*')) as DocumentRow[];
  const byId = new Map(inserted.map((r) => [r.id, r]));
  const rows = ids.map((id) => byId.get(id)!);
  const actor = { ...caller, name: ctx.requireViewer().name };
  await publishAll(
    events,
    rows.flatMap((row) => {
      const project = projects.get(row.project_id)!;
      return [noteCreatedEvent(caller.workspaceId, row, project), itemAddedEvent(actor, 'NOTE', row, project.title)];
    }),
    trx,
  );
  return rows;
}

/**
 * Saves an edit. Given `events`: followers of an insight who want all changes hear of its first
 * edit of the day, and a note whose text changed publishes `note:contentChanged`.
 */
export async function updateDocument(
  ctx: RequestContext,
  kind: DocumentKind,
  args: unknown,
  events?: EventBus,
): Promise<DocumentView> {
  const caller = callerOf(ctx, LABEL[kind].permissions.update);
  const { id, input } = validate(z.object({ id: idSchema(), input: z.object(contentFields(kind)) }), args);
  return ctx.tx(async (trx) => {
    const current = await documentFor(trx, kind, caller, id, 'write');
    assertMayTouchLock(kind, caller, input.locked, current.locked);
    const [row] = (await trx(kind)
      .where({ id })
      .update({ ...contentPatch(input as ContentInput), updated_by: caller.userId, updated_at: trx.fn.now() })
      .returning('*')) as DocumentRow[];
    if (events && kind === 'insights')
      await publishInsightEdited(events, trx, { ...caller, name: ctx.requireViewer().name }, current, row!);
    if (events && kind === 'notes' && row!.content_text !== current.content_text)
      await publishNoteContentChanged(events, trx, caller.workspaceId, row!.id);
    return view(kind, caller)(row!);
  });
}

export async function moveDocument(ctx: RequestContext, kind: DocumentKind, args: unknown): Promise<DocumentView> {
  const caller = callerOf(ctx, LABEL[kind].permissions.update);
  const target = validate(moveSchema, args);
  return ctx.tx(async (trx) => {
    const current = await documentFor(trx, kind, caller, target.id, 'write');
    await moveBetween(trx, listOf(kind, caller.workspaceId, current.project_id), current.id, target);
    return view(kind, caller)((await trx(kind).where({ id: current.id }).first()) as DocumentRow);
  });
}

/** Publishes or unpublishes an insight; `insight:published` goes out when it becomes published. */
export async function setPublished(
  ctx: RequestContext,
  args: unknown,
  published: boolean,
  events: EventBus,
): Promise<DocumentView> {
  const caller = callerOf(ctx, 'insights:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const current = await documentFor(trx, 'insights', caller, id, 'write');
    assertMayTouchLock('insights', caller, undefined, current.locked);
    const [row] = (await trx('insights')
      .where({ id })
      .update({
        published_at: published ? (current.published_at ?? trx.fn.now()) : null,
        updated_by: caller.userId,
        updated_at: trx.fn.now(),
      })
      .returning('*')) as DocumentRow[];
    if (published && !current.published_at) {
      const project = (await trx('projects').where({ id: current.project_id }).first('id', 'title', 'permissions')) as {
        id: string;
        title: string;
        permissions: unknown;
      };
      await publishInsightPublished(
        events,
        trx,
        caller.workspaceId,
        row!,
        { id: project.id, title: project.title },
        caller.userId,
      );
      await publishToFollowers(events, trx, {
        workspaceId: caller.workspaceId,
        projectId: project.id,
        objects: [
          { type: 'PROJECT', id: project.id },
          { type: 'INSIGHT', id: row!.id },
        ],
        option: 'insightsPublished',
        type: FOLLOW_NOTIFICATION_TYPES.insightPublished,
        dedupeKey: `insight-published:${row!.id}`,
        payload: {
          objectType: 'INSIGHT',
          objectId: row!.id,
          objectTitle: row!.title || 'Untitled insight',
          projectId: project.id,
          projectTitle: project.title,
          actorId: caller.userId,
          actorName: ctx.requireViewer().name,
        },
        actorId: caller.userId,
      });
    }
    return view('insights', caller)(row!);
  });
}

/** Moves an item to the trash (Manager and above, 002 §6). */
export async function deleteDocument(ctx: RequestContext, kind: DocumentKind, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, LABEL[kind].permissions.delete);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await documentFor(trx, kind, caller, id, 'write');
    await trx(kind).where({ id }).update({ deleted_at: trx.fn.now(), updated_by: caller.userId });
    return true;
  });
}

export async function getDocument(ctx: RequestContext, kind: DocumentKind, args: unknown): Promise<DocumentView> {
  const caller = callerOf(ctx, LABEL[kind].permissions.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => view(kind, caller)(await documentFor(trx, kind, caller, id, 'read')));
}

export const encodeCursor = (id: string): string => Buffer.from(`id:${id}`).toString('base64url');

function decodeCursor(cursor: string | null | undefined): string | null {
  if (!cursor) return null;
  const id = /^id:([0-9a-f-]{36})$/i.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (!id) throw badInput('after', 'This list cursor is not valid. Start again from the first page.');
  return id;
}

const listSchema = z.object({
  projectId: idSchema('projectId'),
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(CONTENT_LIMITS.pageSize, `A page can have at most ${CONTENT_LIMITS.pageSize} items.`)
    .nullish(),
  after: z.string().nullish(),
  orderBy: z.enum(ORDERS, { error: `orderBy must be one of ${ORDERS.join(', ')}.` }).nullish(),
  archived: z.boolean().nullish(),
  published: z.boolean().nullish(),
  search: z
    .string()
    .max(LIST_FILTER_LIMITS.search, `search can have at most ${LIST_FILTER_LIMITS.search} characters.`)
    .nullish(),
  tagIds: z
    .array(idSchema('tagIds'))
    .max(LIST_FILTER_LIMITS.tagIds, `tagIds can name at most ${LIST_FILTER_LIMITS.tagIds} tags.`)
    .nullish(),
});

/** `%` and `_` typed by a person are letters, not wildcards. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface DocumentPage {
  nodes: DocumentView[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/**
 * One page of a project's notes or insights, keyset-paginated so every page (the first above all)
 * reads one range of the (workspace_id, project_id, rank|created_at, id) indexes.
 */
export async function listDocuments(ctx: RequestContext, kind: DocumentKind, args: unknown): Promise<DocumentPage> {
  const caller = callerOf(ctx, LABEL[kind].permissions.read);
  const input = validate(listSchema, args);
  const first = input.first ?? 50;
  const after = decodeCursor(input.after);
  const order: Order = input.orderBy ?? 'RANK';
  return ctx.tx(async (trx) => {
    await projectFor(trx, caller, input.projectId, 'read');
    const tagIds = [...new Set(input.tagIds ?? [])];
    // Every tag filtered by must be one the caller can read, as when tagging.
    await tagsFor(trx, caller, tagIds, 'read');
    const [column, direction] = ORDER_COLUMNS[order];
    const q = trx(kind)
      .where({ workspace_id: caller.workspaceId, project_id: input.projectId })
      .whereNull('deleted_at')
      .orderBy([
        { column, order: direction },
        { column: 'id', order: direction },
      ])
      .limit(first + 1);
    if (input.archived !== null && input.archived !== undefined) q.where({ archived: input.archived });
    if (kind === 'insights' && input.published !== null && input.published !== undefined) {
      if (input.published) q.whereNotNull('published_at');
      else q.whereNull('published_at');
    }
    const search = input.search?.trim();
    if (search) {
      const pattern = likePattern(search);
      q.where((w) => w.whereILike('title', pattern).orWhereILike('content_text', pattern));
    }
    if (tagIds.length) {
      // A note's own tags; an insight's are those of the highlights it cites (as its row shows them).
      q.whereExists((sub) => {
        if (kind === 'notes')
          sub.select(1).from('note_tags as nt').whereRaw('nt.note_id = notes.id').whereIn('nt.tag_id', tagIds);
        else
          sub
            .select(1)
            .from('highlights as h')
            .join('highlight_tags as ht', 'ht.highlight_id', 'h.id')
            .whereRaw('h.insight_id = insights.id')
            .whereNull('h.deleted_at')
            .whereIn('ht.tag_id', tagIds);
      });
    }
    if (after) {
      q.whereRaw(`(??, id) ${direction === 'asc' ? '>' : '<'} (select ??, id from ?? where id = ?)`, [
        column,
        column,
        kind,
        after,
      ]);
    }
    const rows = (await q) as DocumentRow[];
    const page = rows.slice(0, first);
    const details = await rowDetails(trx, caller.workspaceId, kind === 'notes' ? 'NOTE' : 'INSIGHT', page);
    const nodes = page.map((row) => ({
      ...view(kind, caller)(row),
      listed: { tags: details.tags.get(row.id) ?? [], highlightCount: details.highlightCounts.get(row.id) ?? 0 },
    }));
    const hasNextPage = rows.length > first;
    return { nodes, hasNextPage, endCursor: hasNextPage ? encodeCursor(nodes[nodes.length - 1]!.id) : null };
  });
}
