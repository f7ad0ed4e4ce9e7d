import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, atLeast, badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { moveBetween, rankForNewItem, type RankedList } from '../ranks/reorder.ts';
import { projectAccess, projectFor, type Caller, type ProjectRow } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema, moveSchema, requiredTitle, sent } from '../projects/inputs.ts';
import { assertFilterForm } from '@fieldbook/search/item-filter';
import { canvasStateSchema, mergeCanvas, readCanvas, type CanvasState } from './canvas.ts';
import {
  VIEW_LAYOUTS,
  VIEW_LIMITS,
  VIEW_OBJECT_TYPES,
  columnsSchema,
  filterSchema,
  groupSchema,
  hiddenFieldsSchema,
  hiddenOptionsSchema,
  readViewData,
  sortSchema,
  viewDataProblem,
  type ViewData,
  type ViewLayout,
  type ViewObjectType,
} from './settings.ts';

/**
 * Project views (002 §2): saved layouts over a project's notes, insights or highlights, in rank
 * order per project. Whoever can read the project can read its views; contributors and above with
 * write access to the project create, change, reorder and delete them.
 */
export interface ViewRow {
  id: string;
  workspace_id: string;
  project_id: string;
  title: string;
  layout: ViewLayout;
  object_type: ViewObjectType;
  rank: number;
  view_data: unknown;
  canvas: unknown;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ProjectViewRecord extends ViewRow {
  settings: ViewData;
  canvasState: CanvasState;
  canEdit: boolean;
  /** Who is looking, for the project the view belongs to. */
  caller: Caller;
}

const viewList = (workspaceId: string, projectId: string): RankedList => ({
  table: 'project_views',
  scope: { workspace_id: workspaceId, project_id: projectId },
});

function canEditProject(caller: Caller, project: ProjectRow): boolean {
  return (
    caller.membership.effectiveRole !== 'VIEWER' &&
    atLeast(projectAccess(caller.membership, caller.userId, project.permissions).level, 'write')
  );
}

function record(caller: Caller, row: ViewRow, canEdit: boolean): ProjectViewRecord {
  return { ...row, settings: readViewData(row.view_data), canvasState: readCanvas(row.canvas), canEdit, caller };
}

/** The view and its project, if the caller may use it at `needed` (NOT_FOUND when unreadable). */
export async function viewFor(
  trx: Knex.Transaction,
  caller: Caller,
  id: string,
  needed: 'read' | 'write',
): Promise<{ view: ViewRow; project: ProjectRow }> {
  const view = (await trx('project_views').where({ id, workspace_id: caller.workspaceId }).first()) as
    | ViewRow
    | undefined;
  if (!view) throw notFound('That view');
  const project = await projectFor(trx, caller, view.project_id, needed).catch((error: unknown) => {
    throw error instanceof AppError && error.errorCode === 'NOT_FOUND' ? notFound('That view') : error;
  });
  return { view, project };
}

const settingsShape = {
  sort: sortSchema.nullish(),
  filter: filterSchema.optional(),
  group: groupSchema.nullish(),
  columns: columnsSchema.nullish(),
  hiddenFields: hiddenFieldsSchema.nullish(),
  hiddenOptions: hiddenOptionsSchema.nullish(),
  hideUncategorized: z.boolean().nullish(),
  canvas: canvasStateSchema.nullish(),
};
const layoutSchema = z.enum(VIEW_LAYOUTS, { error: `layout is one of ${VIEW_LAYOUTS.join(', ')}.` });
const objectTypeSchema = z.enum(VIEW_OBJECT_TYPES, { error: `objectType is one of ${VIEW_OBJECT_TYPES.join(', ')}.` });

const createSchema = z.object({
  projectId: idSchema('projectId'),
  input: z.object({
    title: requiredTitle('view'),
    layout: layoutSchema,
    objectType: objectTypeSchema,
    ...settingsShape,
  }),
});
const updateSchema = z.object({
  id: idSchema(),
  input: z.object({
    title: requiredTitle('view').optional(),
    layout: layoutSchema.optional(),
    objectType: objectTypeSchema.optional(),
    ...settingsShape,
  }),
});

type SettingsInput = z.infer<(typeof updateSchema)['shape']['input']>;

/** The stored settings with every key the client sent applied; null resets a key. */
function applySettings(current: ViewData, input: SettingsInput, raw: object): ViewData {
  const next = { ...current };
  if (sent(raw, 'sort')) next.sort = input.sort ?? [];
  if (sent(raw, 'filter')) next.filter = input.filter ?? null;
  if (sent(raw, 'group')) next.group = input.group ?? null;
  if (sent(raw, 'columns')) next.columns = input.columns ?? [];
  if (sent(raw, 'hiddenFields')) next.hiddenFields = input.hiddenFields ?? [];
  if (sent(raw, 'hiddenOptions')) next.hiddenOptions = input.hiddenOptions ?? [];
  if (sent(raw, 'hideUncategorized')) next.hideUncategorized = input.hideUncategorized ?? false;
  return next;
}

function applyCanvas(current: CanvasState, input: SettingsInput, raw: object): CanvasState {
  if (!sent(raw, 'canvas')) return current;
  const rawCanvas = (raw as { canvas?: unknown }).canvas;
  if (!input.canvas || !rawCanvas || typeof rawCanvas !== 'object')
    return { ...current, stagingArea: null, objectRanks: [], expandedCardIds: [], summary: null };
  return mergeCanvas(current, input.canvas, Object.keys(rawCanvas));
}

/** Cross-field rules and the ones that need the database: the grouping field must be usable here. */
async function assertSettings(
  trx: Knex.Transaction,
  project: ProjectRow,
  objectType: ViewObjectType,
  data: ViewData,
): Promise<void> {
  const problem = viewDataProblem(objectType, data);
  if (problem) throw badInput(problem.field, problem.message);
  // The filter is kept as given, but only a form search can read: a bad one is refused when saved.
  if (data.filter) assertFilterForm(data.filter, 'input.filter');
  const group = data.group;
  if (group?.fieldId) {
    const field = (await trx('fields')
      .where({ id: group.fieldId, workspace_id: project.workspace_id })
      .first('type', 'project_id')) as { type: string; project_id: string | null } | undefined;
    const usable = field && field.type === group.kind && (field.project_id === null || field.project_id === project.id);
    if (!usable)
      throw badInput(
        'input.group.fieldId',
        `Group by a ${group.kind.toLowerCase()} field of this project or of the workspace.`,
      );
  }
}

const rawInput = (args: unknown): object => {
  const input = (args as { input?: unknown } | null)?.input;
  return input && typeof input === 'object' ? input : {};
};

export async function listViews(ctx: RequestContext, args: unknown): Promise<ProjectViewRecord[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { projectId } = validate(z.object({ projectId: idSchema('projectId') }), args);
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, projectId, 'read');
    const rows = (await trx('project_views')
      .where({ workspace_id: caller.workspaceId, project_id: projectId })
      .orderBy([{ column: 'rank' }, { column: 'id' }])) as ViewRow[];
    const canEdit = canEditProject(caller, project);
    return rows.map((r) => record(caller, r, canEdit));
  });
}

export async function getView(ctx: RequestContext, args: unknown): Promise<ProjectViewRecord> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const { view, project } = await viewFor(trx, caller, id, 'read');
    return record(caller, view, canEditProject(caller, project));
  });
}

export async function createView(ctx: RequestContext, args: unknown): Promise<ProjectViewRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const { projectId, input } = validate(createSchema, args);
  const raw = rawInput(args);
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, projectId, 'write');
    const settings = applySettings(readViewData({}), input, raw);
    await assertSettings(trx, project, input.objectType, settings);
    const rank = await rankForNewItem(trx, viewList(caller.workspaceId, projectId));
    const count = (
      await trx('project_views')
        .where({ workspace_id: caller.workspaceId, project_id: projectId })
        .count<Array<{ count: number }>>('* as count')
    )[0];
    if (Number(count?.count ?? 0) >= VIEW_LIMITS.viewsPerProject) {
      throw badInput('projectId', `A project can have at most ${VIEW_LIMITS.viewsPerProject} views.`);
    }
    const [row] = (await trx('project_views')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: projectId,
        title: input.title,
        layout: input.layout,
        object_type: input.objectType,
        rank,
        view_data: JSON.stringify(settings),
        canvas: JSON.stringify(applyCanvas(readCanvas({}), input, raw)),
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('*')) as ViewRow[];
    return record(caller, row!, true);
  });
}

export async function updateView(ctx: RequestContext, args: unknown): Promise<ProjectViewRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const { id, input } = validate(updateSchema, args);
  const raw = rawInput(args);
  return ctx.tx(async (trx) => {
    const { view, project } = await viewFor(trx, caller, id, 'write');
    const objectType = input.objectType ?? view.object_type;
    const settings = applySettings(readViewData(view.view_data), input, raw);
    await assertSettings(trx, project, objectType, settings);
    const patch: Record<string, unknown> = {
      object_type: objectType,
      view_data: JSON.stringify(settings),
      canvas: JSON.stringify(applyCanvas(readCanvas(view.canvas), input, raw)),
      updated_by: caller.userId,
      updated_at: trx.fn.now(),
    };
    if (input.title !== undefined) patch.title = input.title;
    if (input.layout !== undefined) patch.layout = input.layout;
    const [row] = (await trx('project_views').where({ id }).update(patch).returning('*')) as ViewRow[];
    return record(caller, row!, true);
  });
}

export async function moveView(ctx: RequestContext, args: unknown): Promise<ProjectViewRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const target = validate(moveSchema, args);
  return ctx.tx(async (trx) => {
    const { view } = await viewFor(trx, caller, target.id, 'write');
    await moveBetween(trx, viewList(caller.workspaceId, view.project_id), view.id, target);
    return record(caller, (await trx('project_views').where({ id: view.id }).first()) as ViewRow, true);
  });
}

export async function deleteView(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await viewFor(trx, caller, id, 'write');
    await trx('project_views').where({ id }).delete();
    return true;
  });
}
