import type { Knex } from 'knex';
import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import type { HighlightRow, HighlightView } from '../highlights/highlights.ts';
import { documentFor, encodeCursor, type DocumentRow, type DocumentView } from '../notes/documents.ts';
import { projectFor, readableProjectIds, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { rethrowAs } from '../tags/access.ts';
import { decodeIdCursor, pageSize } from './inputs.ts';
import { personFor } from './people.ts';

/**
 * Which people a note or highlight is about. Linking changes the note (or the highlight's note),
 * so it needs write access to its project; a locked note may still be linked, as highlighting it
 * may, because its content does not change.
 */

/** A live highlight (its note live too) the caller reaches at `needed`; NOT_FOUND otherwise. */
async function highlightFor(
  trx: Knex.Transaction,
  caller: Caller,
  id: string,
  needed: 'read' | 'write',
): Promise<HighlightRow> {
  const row = (await trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where({ 'h.id': id, 'h.workspace_id': caller.workspaceId })
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .first('h.*')) as HighlightRow | undefined;
  if (!row) throw notFound('That highlight');
  await projectFor(trx, caller, row.project_id, needed).catch(rethrowAs('That highlight'));
  return row;
}

const noteArgs = z.object({ noteId: idSchema('noteId'), personId: idSchema('personId') });
const highlightArgs = z.object({ highlightId: idSchema('highlightId'), personId: idSchema('personId') });

export async function setNotePerson(ctx: RequestContext, args: unknown, linked: boolean): Promise<DocumentView> {
  const caller = callerOf(ctx, 'notes:update');
  const input = validate(noteArgs, args);
  return ctx.tx(async (trx) => {
    const note = await documentFor(trx, 'notes', caller, input.noteId, 'write');
    await personFor(trx, caller, input.personId);
    if (linked) {
      await trx('note_people')
        .insert({
          workspace_id: caller.workspaceId,
          note_id: note.id,
          person_id: input.personId,
          created_by: caller.userId,
        })
        .onConflict(['note_id', 'person_id'])
        .ignore();
    } else {
      await trx('note_people').where({ note_id: note.id, person_id: input.personId }).delete();
    }
    return { ...note, kind: 'notes', caller };
  });
}

export async function setHighlightPerson(ctx: RequestContext, args: unknown, linked: boolean): Promise<HighlightView> {
  const caller = callerOf(ctx, 'notes:update');
  const input = validate(highlightArgs, args);
  return ctx.tx(async (trx) => {
    const highlight = await highlightFor(trx, caller, input.highlightId, 'write');
    await personFor(trx, caller, input.personId);
    if (linked) {
      await trx('highlight_people')
        .insert({
          workspace_id: caller.workspaceId,
          highlight_id: highlight.id,
          person_id: input.personId,
          created_by: caller.userId,
        })
        .onConflict(['highlight_id', 'person_id'])
        .ignore();
    } else {
      await trx('highlight_people').where({ highlight_id: highlight.id, person_id: input.personId }).delete();
    }
    return { ...highlight, caller };
  });
}

const pageArgs = z.object({ personId: idSchema('personId'), first: pageSize.nullish(), after: z.string().nullish() });

interface Page<T> {
  nodes: T[];
  endCursor: string | null;
  hasNextPage: boolean;
}

function pageOf<T extends { id: string }>(rows: T[], first: number): Page<T> {
  const nodes = rows.slice(0, first);
  const hasNextPage = rows.length > first;
  return { nodes, hasNextPage, endCursor: hasNextPage ? encodeCursor(nodes[nodes.length - 1]!.id) : null };
}

/** The notes about a person, newest first, only in projects the caller can read. */
export async function personNotes(ctx: RequestContext, args: unknown): Promise<Page<DocumentView>> {
  const caller = callerOf(ctx, 'people:read');
  const input = validate(pageArgs, args);
  const first = input.first ?? 50;
  const after = decodeIdCursor(input.after);
  return ctx.tx(async (trx) => {
    await personFor(trx, caller, input.personId);
    const projects = await readableProjectIds(trx, caller);
    const q = trx('notes as n')
      .join('note_people as np', 'np.note_id', 'n.id')
      .where({ 'np.person_id': input.personId, 'n.workspace_id': caller.workspaceId })
      .whereNull('n.deleted_at')
      .whereIn('n.project_id', projects)
      .orderBy([
        { column: 'n.created_at', order: 'desc' },
        { column: 'n.id', order: 'desc' },
      ])
      .limit(first + 1)
      .select('n.*');
    if (after) q.whereRaw('(n.created_at, n.id) < (select created_at, id from notes where id = ?)', [after]);
    const rows = (await q) as DocumentRow[];
    return pageOf(
      rows.map((r): DocumentView => ({ ...r, kind: 'notes', caller })),
      first,
    );
  });
}

/** The highlights about a person, newest first, only in projects the caller can read. */
export async function personHighlights(ctx: RequestContext, args: unknown): Promise<Page<HighlightView>> {
  const caller = callerOf(ctx, 'people:read');
  const input = validate(pageArgs, args);
  const first = input.first ?? 50;
  const after = decodeIdCursor(input.after);
  return ctx.tx(async (trx) => {
    await personFor(trx, caller, input.personId);
    const projects = await readableProjectIds(trx, caller);
    const q = trx('highlights as h')
      .join('highlight_people as hp', 'hp.highlight_id', 'h.id')
      .leftJoin('notes as n', 'n.id', 'h.note_id')
      .where({ 'hp.person_id': input.personId, 'h.workspace_id': caller.workspaceId })
      .whereNull('h.deleted_at')
      .where((w) => w.whereNull('h.note_id').orWhereNull('n.deleted_at'))
      .whereIn('h.project_id', projects)
      .orderBy([
        { column: 'h.created_at', order: 'desc' },
        { column: 'h.id', order: 'desc' },
      ])
      .limit(first + 1)
      .select('h.*');
    if (after) q.whereRaw('(h.created_at, h.id) < (select created_at, id from highlights where id = ?)', [after]);
    const rows = (await q) as HighlightRow[];
    return pageOf(
      rows.map((r): HighlightView => ({ ...r, caller })),
      first,
    );
  });
}
