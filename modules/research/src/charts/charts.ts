import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, atLeast, badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { projectAccess, projectFor, type Caller, type ProjectRow } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import {
  CHART_LIMITS,
  chartFilterSchema,
  chartTitle,
  chartTypeSchema,
  groupBySchema,
  metricSchema,
  type ChartGroupBy,
  type ChartMetric,
  type ChartType,
} from './options.ts';

/**
 * Project charts (000 §3): whoever can read a project can read its charts; contributors and
 * above with write access to the project create, change and delete them.
 */
export interface ChartRow {
  id: string;
  workspace_id: string;
  project_id: string;
  title: string;
  metric: ChartMetric;
  group_by: ChartGroupBy;
  chart_type: ChartType;
  collapsed_group_ids: string[];
  hidden_item_ids: string[];
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ChartRecord extends ChartRow {
  canEdit: boolean;
  caller: Caller;
}

export function canEditProject(caller: Caller, project: ProjectRow): boolean {
  return (
    caller.membership.effectiveRole !== 'VIEWER' &&
    atLeast(projectAccess(caller.membership, caller.userId, project.permissions).level, 'write')
  );
}

const record = (caller: Caller, row: ChartRow, project: ProjectRow): ChartRecord => ({
  ...row,
  canEdit: canEditProject(caller, project),
  caller,
});

/** The chart and its project, if the caller may use it at `needed` (NOT_FOUND when unreadable). */
export async function chartFor(
  trx: Knex.Transaction,
  caller: Caller,
  id: string,
  needed: 'read' | 'write',
): Promise<{ chart: ChartRow; project: ProjectRow }> {
  const chart = (await trx('project_charts').where({ id, workspace_id: caller.workspaceId }).first()) as
    | ChartRow
    | undefined;
  if (!chart) throw notFound('That chart');
  const project = await projectFor(trx, caller, chart.project_id, needed).catch((error: unknown) => {
    throw error instanceof AppError && error.errorCode === 'NOT_FOUND' ? notFound('That chart') : error;
  });
  return { chart, project };
}

const createSchema = z.object({
  projectId: idSchema('projectId'),
  input: z.object({
    title: chartTitle('chart'),
    metric: metricSchema,
    groupBy: groupBySchema,
    type: chartTypeSchema,
    filter: chartFilterSchema.nullish(),
  }),
});
const updateSchema = z.object({
  id: idSchema(),
  input: z.object({
    title: chartTitle('chart').optional(),
    metric: metricSchema.optional(),
    groupBy: groupBySchema.optional(),
    type: chartTypeSchema.optional(),
    filter: chartFilterSchema.nullish(),
  }),
});

type FilterInput = z.infer<typeof chartFilterSchema>;

/** Collapsed groups must be tag groups, hidden items tags or tag groups, of this workspace. */
async function assertFilter(trx: Knex.Transaction, workspaceId: string, filter: FilterInput): Promise<void> {
  const groups = [...new Set(filter.collapsedGroupIds ?? [])];
  if (groups.length) {
    const found = await trx('tag_groups').where({ workspace_id: workspaceId }).whereIn('id', groups).pluck('id');
    const missing = groups.find((g) => !found.includes(g));
    if (missing) throw badInput('input.filter.collapsedGroupIds', `No tag group ${missing} in this workspace.`);
  }
  const items = [...new Set(filter.hiddenItemIds ?? [])];
  if (items.length) {
    const tags = await trx('tags').where({ workspace_id: workspaceId }).whereIn('id', items).pluck('id');
    const tagGroups = await trx('tag_groups').where({ workspace_id: workspaceId }).whereIn('id', items).pluck('id');
    const missing = items.find((i) => !tags.includes(i) && !tagGroups.includes(i));
    if (missing) throw badInput('input.filter.hiddenItemIds', `No tag or tag group ${missing} in this workspace.`);
  }
}

export async function listCharts(ctx: RequestContext, args: unknown): Promise<ChartRecord[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { projectId } = validate(z.object({ projectId: idSchema('projectId') }), args);
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, projectId, 'read');
    const rows = (await trx('project_charts')
      .where({ workspace_id: caller.workspaceId, project_id: projectId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as ChartRow[];
    return rows.map((r) => record(caller, r, project));
  });
}

export async function getChart(ctx: RequestContext, args: unknown): Promise<ChartRecord> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const { chart, project } = await chartFor(trx, caller, id, 'read');
    return record(caller, chart, project);
  });
}

export async function createChart(ctx: RequestContext, args: unknown): Promise<ChartRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const { projectId, input } = validate(createSchema, args);
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, projectId, 'write');
    const filter = input.filter ?? {};
    await assertFilter(trx, caller.workspaceId, filter);
    const count = (
      await trx('project_charts')
        .where({ workspace_id: caller.workspaceId, project_id: projectId })
        .count<Array<{ count: number }>>('* as count')
    )[0];
    if (Number(count?.count ?? 0) >= CHART_LIMITS.chartsPerProject)
      throw badInput('projectId', `A project can have at most ${CHART_LIMITS.chartsPerProject} charts.`);
    const [row] = (await trx('project_charts')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: projectId,
        title: input.title,
        metric: input.metric,
        group_by: input.groupBy,
        chart_type: input.type,
        collapsed_group_ids: JSON.stringify([...new Set(filter.collapsedGroupIds ?? [])]),
        hidden_item_ids: JSON.stringify([...new Set(filter.hiddenItemIds ?? [])]),
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('*')) as ChartRow[];
    return record(caller, row!, project);
  });
}

export async function updateChart(ctx: RequestContext, args: unknown): Promise<ChartRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const { id, input } = validate(updateSchema, args);
  return ctx.tx(async (trx) => {
    const { project } = await chartFor(trx, caller, id, 'write');
    const patch: Record<string, unknown> = { updated_by: caller.userId, updated_at: trx.fn.now() };
    if (input.title !== undefined) patch.title = input.title;
    if (input.metric !== undefined) patch.metric = input.metric;
    if (input.groupBy !== undefined) patch.group_by = input.groupBy;
    if (input.type !== undefined) patch.chart_type = input.type;
    if (input.filter !== undefined) {
      // null clears the filter; a key left out of the filter keeps its ids.
      const filter = input.filter ?? { collapsedGroupIds: [], hiddenItemIds: [] };
      await assertFilter(trx, caller.workspaceId, filter);
      if (filter.collapsedGroupIds) patch.collapsed_group_ids = JSON.stringify([...new Set(filter.collapsedGroupIds)]);
      if (filter.hiddenItemIds) patch.hidden_item_ids = JSON.stringify([...new Set(filter.hiddenItemIds)]);
    }
    const [row] = (await trx('project_charts').where({ id }).update(patch).returning('*')) as ChartRow[];
    return record(caller, row!, project);
  });
}

export async function deleteChart(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await chartFor(trx, caller, id, 'write');
    await trx('project_charts').where({ id }).delete();
    return true;
  });
}
