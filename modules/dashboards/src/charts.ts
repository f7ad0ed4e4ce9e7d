import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import type { ChannelsServices } from '@fieldbook/channels';
import type { ResearchServices } from '@fieldbook/research';
import { callerOf, dashboardFor, DASHBOARD_LIMITS, idSchema } from './dashboards.ts';

/**
 * A dashboard's charts: project charts, and channels' data points over time. Each is checked
 * readable by whoever adds it, and read again with each viewer's access when shown.
 */
export interface DashboardChartRow {
  id: string;
  workspace_id: string;
  dashboard_id: string;
  kind: 'PROJECT_CHART' | 'CHANNEL';
  project_chart_id: string | null;
  channel_id: string | null;
  title: string | null;
  interval: 'DAY' | 'WEEK' | 'MONTH' | null;
  /** A channel chart's: data points over time by theme, or the count by theme. */
  measure: ChannelMeasure | null;
  chart_type: ChannelChartType | null;
  rank: number;
  created_at: Date;
}

export const CHANNEL_MEASURES = ['OVER_TIME', 'BY_THEME'] as const;
export const CHANNEL_CHART_TYPES = ['BAR', 'LINE', 'PIE'] as const;
export type ChannelMeasure = (typeof CHANNEL_MEASURES)[number];
export type ChannelChartType = (typeof CHANNEL_CHART_TYPES)[number];
/** How each measure may be drawn: over time as bars or lines, by theme as bars or a pie. */
export const CHART_TYPES_OF: Record<ChannelMeasure, readonly ChannelChartType[]> = {
  OVER_TIME: ['BAR', 'LINE'],
  BY_THEME: ['BAR', 'PIE'],
};

export interface DashboardChartView {
  id: string;
  dashboardId: string;
  kind: DashboardChartRow['kind'];
  projectChartId: string | null;
  channelId: string | null;
  title: string | null;
  interval: DashboardChartRow['interval'];
  measure: ChannelMeasure | null;
  chartType: ChannelChartType | null;
  readable: boolean;
  /** The stored row, for field resolvers (never sent: GraphQL reads only the fields above). */
  row: DashboardChartRow;
}

export interface ChartSources {
  research: ResearchServices;
  channels: ChannelsServices | undefined;
}

const addSchema = z.object({
  dashboardId: idSchema('dashboardId'),
  input: z.object({
    projectChartId: idSchema('projectChartId').nullish(),
    channelId: idSchema('channelId').nullish(),
    title: z
      .string()
      .trim()
      .min(1, 'A chart title has 1 to 300 characters.')
      .max(DASHBOARD_LIMITS.title, `A chart title can be at most ${DASHBOARD_LIMITS.title} characters long.`)
      .nullish(),
    interval: z.enum(['DAY', 'WEEK', 'MONTH'], { error: 'interval is one of DAY, WEEK, MONTH.' }).nullish(),
    measure: z.enum(CHANNEL_MEASURES, { error: `measure is one of ${CHANNEL_MEASURES.join(', ')}.` }).nullish(),
    chartType: z
      .enum(CHANNEL_CHART_TYPES, { error: `chartType is one of ${CHANNEL_CHART_TYPES.join(', ')}.` })
      .nullish(),
  }),
});

/** What one row shows to the caller: its title and ids only when they may read its source. */
async function view(ctx: RequestContext, sources: ChartSources, row: DashboardChartRow): Promise<DashboardChartView> {
  const base = {
    id: row.id,
    dashboardId: row.dashboard_id,
    kind: row.kind,
    interval: row.interval,
    measure: row.measure,
    chartType: row.chart_type,
    row,
  };
  if (row.kind === 'PROJECT_CHART') {
    const chart = row.project_chart_id ? await sources.research.projectChart(ctx, row.project_chart_id) : null;
    return {
      ...base,
      projectChartId: chart?.id ?? null,
      channelId: null,
      title: chart?.title ?? null,
      readable: chart !== null,
    };
  }
  const channel = row.channel_id && sources.channels ? await sources.channels.channel(ctx, row.channel_id) : null;
  return {
    ...base,
    projectChartId: null,
    channelId: channel?.id ?? null,
    title: channel ? (row.title ?? channel.name) : null,
    readable: channel !== null,
  };
}

export async function dashboardCharts(
  ctx: RequestContext,
  sources: ChartSources,
  dashboardId: string,
): Promise<DashboardChartView[]> {
  const rows = (await ctx.tx((trx) =>
    trx('dashboard_charts')
      .where({ dashboard_id: dashboardId })
      .orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
  )) as DashboardChartRow[];
  const views: DashboardChartView[] = [];
  for (const row of rows) views.push(await view(ctx, sources, row));
  return views;
}

export async function addDashboardChart(
  ctx: RequestContext,
  sources: ChartSources,
  args: unknown,
): Promise<DashboardChartView> {
  const caller = callerOf(ctx, 'projects:update');
  const { dashboardId, input } = validate(addSchema, args);
  if (!input.projectChartId === !input.channelId)
    throw badInput('input', 'Give exactly one of projectChartId and channelId.');
  if (input.projectChartId && (input.title || input.interval || input.measure || input.chartType)) {
    throw badInput(
      'input.title',
      'A project chart keeps its own title and options; title, interval, measure and chartType are for channel charts.',
    );
  }
  const measure = input.measure ?? 'OVER_TIME';
  const chartType = input.chartType ?? 'BAR';
  if (input.channelId && !CHART_TYPES_OF[measure].includes(chartType)) {
    throw badInput(
      'input.chartType',
      `A ${measure === 'OVER_TIME' ? 'chart over time' : 'count by theme'} is drawn as ${CHART_TYPES_OF[measure].join(' or ')}.`,
    );
  }
  if (input.projectChartId && !(await sources.research.projectChart(ctx, input.projectChartId)))
    throw notFound('That chart');
  if (input.channelId) {
    if (!sources.channels) throw badInput('input.channelId', 'Channels are not available in this installation.');
    if (!(await sources.channels.channel(ctx, input.channelId))) throw notFound('That channel');
  }
  const row = await ctx.tx(async (trx) => {
    await dashboardFor(trx, caller, dashboardId, 'write');
    const existing = (
      await trx('dashboard_charts')
        .where({ dashboard_id: dashboardId })
        .max<Array<{ max: number | null }>>('rank as max')
        .count<Array<{ count: string }>>('* as count')
    )[0] as unknown as {
      max: number | null;
      count: string;
    };
    if (Number(existing.count) >= DASHBOARD_LIMITS.chartsPerDashboard)
      throw badInput('dashboardId', `A dashboard can hold at most ${DASHBOARD_LIMITS.chartsPerDashboard} charts.`);
    const [inserted] = (await trx('dashboard_charts')
      .insert({
        workspace_id: caller.workspaceId,
        dashboard_id: dashboardId,
        kind: input.projectChartId ? 'PROJECT_CHART' : 'CHANNEL',
        project_chart_id: input.projectChartId ?? null,
        channel_id: input.channelId ?? null,
        title: input.channelId ? (input.title ?? null) : null,
        interval: input.channelId ? (input.interval ?? 'WEEK') : null,
        measure: input.channelId ? measure : null,
        chart_type: input.channelId ? chartType : null,
        rank: (existing.max ?? 0) + 1,
        created_by: caller.userId,
      })
      .returning('*')) as DashboardChartRow[];
    await trx('dashboards').where({ id: dashboardId }).update({ updated_at: trx.fn.now(), updated_by: caller.userId });
    return inserted!;
  });
  return view(ctx, sources, row);
}

export async function removeDashboardChart(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const row = (await trx('dashboard_charts').where({ id, workspace_id: caller.workspaceId }).first()) as
      | DashboardChartRow
      | undefined;
    if (!row) throw notFound('That dashboard chart');
    await dashboardFor(trx, caller, row.dashboard_id, 'write');
    await trx('dashboard_charts').where({ id }).delete();
    return true;
  });
}
