import type { Knex } from 'knex';
import { z } from 'zod';
import { forbidden, notFound, validate, type RequestContext } from '@fieldbook/core';
import { documentFor } from '../notes/documents.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf, isManager } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import type { HighlightRow, HighlightView } from './highlights.ts';

/**
 * An insight cites highlights as its evidence: a cited highlight points at the insight through
 * `highlights.insight_id` (one insight per highlight; citing it again elsewhere moves it). The
 * public view of an insight shows the highlights of its own project that it cites.
 */
const citeSchema = z.object({ insightId: idSchema('insightId'), highlightId: idSchema('highlightId') });

const isNotFound = (error: unknown): boolean =>
  error instanceof Error && 'errorCode' in error && error.errorCode === 'NOT_FOUND';

/** A live highlight the caller may read (its note out of the trash too), or NOT_FOUND. */
async function readableHighlight(trx: Knex.Transaction, caller: Caller, id: string): Promise<HighlightRow> {
  const row = (await trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where({ 'h.id': id, 'h.workspace_id': caller.workspaceId })
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .first('h.*')) as HighlightRow | undefined;
  if (!row) throw notFound('That highlight');
  await projectFor(trx, caller, row.project_id, 'read').catch((error: unknown) => {
    throw isNotFound(error) ? notFound('That highlight') : error;
  });
  return row;
}

/** The insight, when the caller may change it: write access, and a manager when it is locked. */
async function editableInsight(trx: Knex.Transaction, caller: Caller, id: string) {
  const insight = await documentFor(trx, 'insights', caller, id, 'write');
  if (insight.locked && !isManager(caller))
    throw forbidden('This insight is locked; only managers and admins can edit it.');
  return insight;
}

export async function citeHighlight(ctx: RequestContext, args: unknown): Promise<HighlightView> {
  const caller = callerOf(ctx, 'insights:update');
  const input = validate(citeSchema, args);
  return ctx.tx(async (trx) => {
    const insight = await editableInsight(trx, caller, input.insightId);
    await readableHighlight(trx, caller, input.highlightId);
    const [row] = (await trx('highlights')
      .where({ id: input.highlightId })
      .update({ insight_id: insight.id, updated_at: trx.fn.now() })
      .returning('*')) as HighlightRow[];
    return { ...row!, caller };
  });
}

export async function unciteHighlight(ctx: RequestContext, args: unknown): Promise<HighlightView> {
  const caller = callerOf(ctx, 'insights:update');
  const input = validate(citeSchema, args);
  return ctx.tx(async (trx) => {
    const insight = await editableInsight(trx, caller, input.insightId);
    const current = await readableHighlight(trx, caller, input.highlightId);
    if (current.insight_id !== insight.id) return { ...current, caller };
    const [row] = (await trx('highlights')
      .where({ id: input.highlightId })
      .update({ insight_id: null, updated_at: trx.fn.now() })
      .returning('*')) as HighlightRow[];
    return { ...row!, caller };
  });
}

/** The highlights an insight cites that the caller may read, oldest citation first. */
export async function citedHighlights(
  trx: Knex.Transaction,
  caller: Caller,
  insightId: string,
): Promise<HighlightView[]> {
  const rows = (await trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where({ 'h.workspace_id': caller.workspaceId, 'h.insight_id': insightId })
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .orderBy([{ column: 'h.created_at' }, { column: 'h.id' }])
    .select('h.*')) as HighlightRow[];
  const readable: HighlightView[] = [];
  const allowed = new Map<string, boolean>();
  for (const row of rows) {
    if (!allowed.has(row.project_id)) {
      allowed.set(
        row.project_id,
        await projectFor(trx, caller, row.project_id, 'read').then(
          () => true,
          () => false,
        ),
      );
    }
    if (allowed.get(row.project_id)) readable.push({ ...row, caller });
  }
  return readable;
}
