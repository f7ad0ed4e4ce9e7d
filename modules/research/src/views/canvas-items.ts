import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import type { Caller } from '../projects/access.ts';
import {
  CANVAS_LIMITS,
  canvasItemSchema,
  itemOfRow,
  present,
  rowOfItem,
  type CanvasItemInput,
  type CanvasItemRow,
} from './canvas.ts';
import { viewFor, type ViewRow } from './views.ts';

/**
 * The items of a canvas view. A reference must point at a note, insight or highlight of the
 * view's own project that is not in the trash; a reference whose object goes to the trash is
 * left out of the canvas until the object is restored, and goes away with it when the object is
 * deleted for good.
 */
const TARGET: Record<
  'NOTE' | 'INSIGHT' | 'HIGHLIGHT',
  { table: string; column: 'note_id' | 'insight_id' | 'highlight_id'; label: string }
> = {
  NOTE: { table: 'notes', column: 'note_id', label: 'note' },
  INSIGHT: { table: 'insights', column: 'insight_id', label: 'insight' },
  HIGHLIGHT: { table: 'highlights', column: 'highlight_id', label: 'highlight' },
};

/** The items of a view whose references still point at live objects, oldest first (drawing order). */
export async function canvasItemsOf(trx: Knex.Transaction, viewId: string): Promise<CanvasItemRow[]> {
  return (await trx('project_view_canvas_items as i')
    .leftJoin('notes as n', 'n.id', 'i.note_id')
    .leftJoin('insights as s', 's.id', 'i.insight_id')
    .leftJoin('highlights as h', 'h.id', 'i.highlight_id')
    .where('i.view_id', viewId)
    .whereNull('n.deleted_at')
    .whereNull('s.deleted_at')
    .whereNull('h.deleted_at')
    .orderBy([{ column: 'i.created_at' }, { column: 'i.id' }])
    .select('i.*')) as CanvasItemRow[];
}

async function assertTarget(trx: Knex.Transaction, view: ViewRow, item: CanvasItemInput): Promise<void> {
  if (item.kind !== 'REFERENCE') return;
  const target = TARGET[item.objectType];
  const row = await trx(target.table)
    .where({ id: item.objectId, workspace_id: view.workspace_id, project_id: view.project_id })
    .whereNull('deleted_at')
    .first('id');
  // Objects of other projects answer like missing ones, so a canvas never reveals what exists elsewhere.
  if (!row)
    throw new AppError('NOT_FOUND', `That ${target.label} was not found in this project.`, { field: 'input.objectId' });
  const existing = await trx('project_view_canvas_items')
    .where({ view_id: view.id, [target.column]: item.objectId })
    .first('id');
  if (existing) throw badInput('input.objectId', `That ${target.label} is already on this canvas.`);
}

function parseItem(input: Record<string, unknown>): CanvasItemInput {
  return validate(z.object({ input: canvasItemSchema }), { input: present(input) }).input;
}

async function itemFor(
  trx: Knex.Transaction,
  caller: Caller,
  id: string,
): Promise<{ item: CanvasItemRow; view: ViewRow }> {
  const item = (await trx('project_view_canvas_items').where({ id, workspace_id: caller.workspaceId }).first()) as
    | CanvasItemRow
    | undefined;
  if (!item) throw notFound('That canvas item');
  const { view } = await viewFor(trx, caller, item.view_id, 'write').catch((error: unknown) => {
    throw error instanceof AppError && error.errorCode === 'NOT_FOUND' ? notFound('That canvas item') : error;
  });
  return { item, view };
}

export async function addCanvasItem(ctx: RequestContext, args: unknown): Promise<CanvasItemRow> {
  const caller = callerOf(ctx, 'projects:update');
  const { viewId, input } = validate(
    z.object({ viewId: idSchema('viewId'), input: z.record(z.string(), z.unknown()) }),
    args,
  );
  const item = parseItem(input);
  return ctx.tx(async (trx) => {
    const { view } = await viewFor(trx, caller, viewId, 'write');
    if (view.layout !== 'CANVAS')
      throw new AppError('INVALID_OPERATION', 'Only canvas views hold canvas items.', { field: 'viewId' });
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`canvas-items:${view.id}`]);
    const count = (
      await trx('project_view_canvas_items').where({ view_id: view.id }).count<Array<{ count: number }>>('* as count')
    )[0];
    if (Number(count?.count ?? 0) >= CANVAS_LIMITS.itemsPerCanvas) {
      throw badInput(
        'viewId',
        `A canvas can hold at most ${CANVAS_LIMITS.itemsPerCanvas.toLocaleString('en-US')} items.`,
      );
    }
    await assertTarget(trx, view, item);
    const [row] = (await trx('project_view_canvas_items')
      .insert({ workspace_id: caller.workspaceId, view_id: view.id, ...rowOfItem(item), created_by: caller.userId })
      .returning('*')) as CanvasItemRow[];
    await trx('project_views').where({ id: view.id }).update({ updated_by: caller.userId, updated_at: trx.fn.now() });
    return row!;
  });
}

/** Moves, resizes, hides or edits an item; its kind and what a reference points at never change. */
export async function updateCanvasItem(ctx: RequestContext, args: unknown): Promise<CanvasItemRow> {
  const caller = callerOf(ctx, 'projects:update');
  const { id, input } = validate(z.object({ id: idSchema(), input: z.record(z.string(), z.unknown()) }), args);
  return ctx.tx(async (trx) => {
    const found = await itemFor(trx, caller, id);
    const merged = parseItem({ ...itemOfRow(found.item), ...present(input) });
    const [row] = (await trx('project_view_canvas_items')
      .where({ id })
      .update({ ...rowOfItem(merged), updated_at: trx.fn.now() })
      .returning('*')) as CanvasItemRow[];
    await trx('project_views')
      .where({ id: found.view.id })
      .update({ updated_by: caller.userId, updated_at: trx.fn.now() });
    return row!;
  });
}

export async function removeCanvasItem(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const found = await itemFor(trx, caller, id);
    await trx('project_view_canvas_items').where({ id }).delete();
    await trx('project_views')
      .where({ id: found.view.id })
      .update({ updated_by: caller.userId, updated_at: trx.fn.now() });
    return true;
  });
}
