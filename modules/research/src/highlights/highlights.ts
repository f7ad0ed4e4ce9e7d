import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { documentFor, encodeCursor, LIST_FILTER_LIMITS, likePattern } from '../notes/documents.ts';
import { tagsFor } from '../tags/access.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { hexColorSchema } from '../colors/color-schema.ts';
import { idSchema } from '../projects/inputs.ts';
import { CONTENT_LIMITS } from '../projects/limits.ts';

export interface HighlightRow {
  id: string;
  workspace_id: string;
  project_id: string;
  note_id: string | null;
  insight_id: string | null;
  text: string;
  start_offset: number;
  end_offset: number;
  color: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface HighlightView extends HighlightRow {
  caller: Caller;
}

const view =
  (caller: Caller) =>
  (row: HighlightRow): HighlightView => ({ ...row, caller });

/** Highlights that are live: not in the trash, nor is their note. */
function liveHighlights(trx: Knex.Transaction, workspaceId: string) {
  return trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where('h.workspace_id', workspaceId)
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .select('h.*');
}

const offset = (field: string) =>
  z
    .number({ error: `${field} must be a whole number.` })
    .int(`${field} must be a whole number.`)
    .min(0, `${field} cannot be negative.`);

const createSchema = z.object({
  input: z
    .object({
      noteId: idSchema('noteId'),
      startOffset: offset('startOffset'),
      endOffset: offset('endOffset'),
      color: hexColorSchema.nullable().optional(),
    })
    .refine((i) => i.startOffset < i.endOffset, {
      message: 'endOffset must be greater than startOffset.',
      path: ['endOffset'],
    }),
});

/**
 * Highlights a span of a note's plain text: offsets count UTF-16 code units of `contentText`
 * (as JavaScript strings do), start inclusive and end exclusive; the highlight keeps the text
 * of the span. Highlighting does not change the note, so it is allowed on locked notes.
 */
/**
 * `alongside` runs in the highlight's own transaction, for what must commit with it (a suggestion
 * marked accepted, the AI provenance of the highlight).
 */
export async function createHighlight(
  ctx: RequestContext,
  args: unknown,
  alongside?: (trx: Knex.Transaction, highlightId: string) => Promise<void>,
): Promise<HighlightView> {
  const caller = callerOf(ctx, 'notes:update');
  const { input } = validate(createSchema, args);
  return ctx.tx(async (trx) => {
    const note = await documentFor(trx, 'notes', caller, input.noteId, 'write');
    if (input.endOffset > note.content_text.length) {
      throw badInput(
        'input.endOffset',
        `endOffset must be at most ${note.content_text.length}, the length of the note's text.`,
      );
    }
    const text = note.content_text.slice(input.startOffset, input.endOffset);
    if (!text.trim()) throw badInput('input.startOffset', 'A highlight must cover some text, not only spaces.');
    const [row] = (await trx('highlights')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: note.project_id,
        note_id: note.id,
        text,
        start_offset: input.startOffset,
        end_offset: input.endOffset,
        color: input.color ?? null,
        created_by: caller.userId,
      })
      .returning('*')) as HighlightRow[];
    await alongside?.(trx, row!.id);
    return view(caller)(row!);
  });
}

export async function deleteHighlight(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'notes:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const row = (await liveHighlights(trx, caller.workspaceId).where('h.id', id).first()) as HighlightRow | undefined;
    if (!row) throw notFound('That highlight');
    await projectFor(trx, caller, row.project_id, 'write').catch((error: unknown) => {
      throw error instanceof Error && 'errorCode' in error && error.errorCode === 'NOT_FOUND'
        ? notFound('That highlight')
        : error;
    });
    await trx('highlights').where({ id }).update({ deleted_at: trx.fn.now() });
    return true;
  });
}

/** A note's highlights in reading order (the caller has already been allowed to read the note). */
export async function highlightsOfNote(
  trx: Knex.Transaction,
  caller: Caller,
  noteId: string,
): Promise<HighlightView[]> {
  const rows = (await liveHighlights(trx, caller.workspaceId)
    .where('h.note_id', noteId)
    .orderBy([{ column: 'h.start_offset' }, { column: 'h.id' }])) as HighlightRow[];
  return rows.map(view(caller));
}

const listSchema = z
  .object({
    noteId: idSchema('noteId').nullish(),
    projectId: idSchema('projectId').nullish(),
    first: z
      .number()
      .int()
      .min(1, 'first must be at least 1.')
      .max(CONTENT_LIMITS.pageSize, `A page can have at most ${CONTENT_LIMITS.pageSize} items.`)
      .nullish(),
    after: z.string().nullish(),
    orderBy: z
      .enum(['CREATED_DESC', 'CREATED_ASC'], { error: 'orderBy must be CREATED_DESC or CREATED_ASC for highlights.' })
      .nullish(),
    search: z
      .string()
      .max(LIST_FILTER_LIMITS.search, `search can have at most ${LIST_FILTER_LIMITS.search} characters.`)
      .nullish(),
    tagIds: z
      .array(idSchema('tagIds'))
      .max(LIST_FILTER_LIMITS.tagIds, `tagIds can name at most ${LIST_FILTER_LIMITS.tagIds} tags.`)
      .nullish(),
  })
  .refine((i) => Boolean(i.noteId) !== Boolean(i.projectId), {
    message: 'Give either noteId or projectId.',
    path: ['noteId'],
  });

/** Highlights of one note (reading order) or one project (newest first), a page at a time. */
export async function listHighlights(
  ctx: RequestContext,
  args: unknown,
): Promise<{ nodes: HighlightView[]; endCursor: string | null; hasNextPage: boolean }> {
  const caller = callerOf(ctx, 'notes:read');
  const input = validate(listSchema, args);
  const first = input.first ?? 50;
  let after: string | null = null;
  if (input.after) {
    after = /^id:([0-9a-f-]{36})$/i.exec(Buffer.from(input.after, 'base64url').toString('utf8'))?.[1] ?? null;
    if (!after) throw badInput('after', 'This list cursor is not valid. Start again from the first page.');
  }
  return ctx.tx(async (trx) => {
    const q = liveHighlights(trx, caller.workspaceId).limit(first + 1);
    if (input.noteId) {
      await documentFor(trx, 'notes', caller, input.noteId, 'read');
      q.where('h.note_id', input.noteId).orderBy([{ column: 'h.start_offset' }, { column: 'h.id' }]);
      if (after) q.whereRaw('(h.start_offset, h.id) > (select start_offset, id from highlights where id = ?)', [after]);
    } else {
      await projectFor(trx, caller, input.projectId!, 'read');
      const direction = input.orderBy === 'CREATED_ASC' ? 'asc' : 'desc';
      q.where('h.project_id', input.projectId!).orderBy([
        { column: 'h.created_at', order: direction },
        { column: 'h.id', order: direction },
      ]);
      if (after)
        q.whereRaw(
          `(h.created_at, h.id) ${direction === 'asc' ? '>' : '<'} (select created_at, id from highlights where id = ?)`,
          [after],
        );
    }
    const search = input.search?.trim();
    if (search) q.whereILike('h.text', likePattern(search));
    const tagIds = [...new Set(input.tagIds ?? [])];
    if (tagIds.length) {
      await tagsFor(trx, caller, tagIds, 'read');
      q.whereExists((sub) =>
        sub.select(1).from('highlight_tags as ht').whereRaw('ht.highlight_id = h.id').whereIn('ht.tag_id', tagIds),
      );
    }
    const rows = (await q) as HighlightRow[];
    const nodes = rows.slice(0, first).map(view(caller));
    const hasNextPage = rows.length > first;
    return { nodes, hasNextPage, endCursor: hasNextPage ? encodeCursor(nodes[nodes.length - 1]!.id) : null };
  });
}
