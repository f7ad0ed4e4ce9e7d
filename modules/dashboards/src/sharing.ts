import type { Knex } from 'knex';
import type { ModuleContext, RequestContext } from '@fieldbook/core';
import type { ProjectChartFigures, ShareRow, ShareTypeProvider } from '@fieldbook/research';
import type { ChannelChartView } from './channel-chart-view.ts';
import type { ChartSources, DashboardChartRow } from './charts.ts';
import { dashboardFor, type DashboardRow } from './dashboards.ts';
import { withPublicThemeTitles } from './public-titles.ts';
import { SharedFigures } from './share-cache.ts';

/**
 * Public links to dashboards (000 §3 share type dashboard), kept by research's share links.
 *
 * What a link shows: the dashboard as the person who made the link can read it at the moment the
 * link is opened, live. Each project chart they can read whose project allows public links (000
 * §6 public group), and each channel they can read, with its figures: counts by tag, tag group
 * and theme, never the text of a highlight or a data point, nor who gave it. Charts of projects or
 * channels hidden from them are left out, so a link never shows more than its maker could; once
 * they leave the workspace or lose the right to share (Contributor and above), the link shows
 * nothing, as does a revoked link or one of a workspace with public links turned off.
 */
export interface PublicDashboardChartView {
  id: string;
  kind: DashboardChartRow['kind'];
  title: string;
  projectTitle: string | null;
  projectChart: ProjectChartFigures | null;
  channel: ChannelChartView | null;
}

export interface PublicDashboardView {
  kind: 'PublicDashboard';
  id: string;
  title: string;
  charts: PublicDashboardChartView[];
}

/** A channel chart's figures as the member may read them; null when the channel is hidden or gone. */
export async function channelChartView(
  member: RequestContext,
  sources: ChartSources,
  row: DashboardChartRow,
): Promise<ChannelChartView | null> {
  if (row.kind !== 'CHANNEL' || !row.channel_id || !sources.channels) return null;
  const interval = row.interval ?? 'WEEK';
  const data = await sources.channels.themeChart(member, row.channel_id, interval);
  return data ? { measure: row.measure ?? 'OVER_TIME', chartType: row.chart_type ?? 'BAR', interval, ...data } : null;
}

/**
 * What decides which charts a link shows and how they are drawn, as one hash: the dashboard and
 * its charts, the workspace's projects (access, public links, trash), the project charts and the
 * channels drawn. Any change there is seen at the next request; only the figures themselves (the
 * counts) are reused for a while (share-cache.ts).
 */
async function layoutFingerprint(trx: Knex.Transaction, dashboardId: string, workspaceId: string, channels: boolean) {
  const drawn = (column: string) => `(select ${column} from dashboard_charts where dashboard_id = :d)`;
  const { rows } = (await trx.raw(
    `select md5(concat_ws('|',
       (select d::text from dashboards d where d.id = :d),
       (select string_agg(c::text, ';' order by c.id) from dashboard_charts c where c.dashboard_id = :d),
       (select string_agg(concat_ws(',', p.id, p.title, p.permissions::text, p.deleted_at, p.updated_at), ';' order by p.id)
          from projects p where p.workspace_id = :w),
       (select string_agg(pc::text, ';' order by pc.id) from project_charts pc where pc.id in ${drawn('project_chart_id')})
       ${channels ? `, (select string_agg(concat_ws(',', ch.id, ch.name, ch.deleted_at), ';' order by ch.id) from channels ch where ch.id in ${drawn('channel_id')})` : ''}
     )) as v`,
    { d: dashboardId, w: workspaceId },
  )) as { rows: Array<{ v: string }> };
  return rows[0]!.v;
}

async function publicDashboard(
  moduleCtx: ModuleContext,
  sources: ChartSources,
  share: ShareRow,
  cache: SharedFigures<PublicDashboardView>,
): Promise<PublicDashboardView | null> {
  if (!share.created_by) return null;
  const member = await moduleCtx.memberContext(share.workspace_id, share.created_by);
  // openShareLink has checked that the maker may still share; their reading rights decide the rest.
  if (!member) return null;
  const { viewer, workspace, membership } = member.authorize('projects:read');
  const caller = { userId: viewer.userId, workspaceId: workspace.id, membership };
  const found = await member.tx(async (trx) => {
    const dashboard = (await trx('dashboards')
      .where({ id: share.object_id, workspace_id: caller.workspaceId })
      .first()) as DashboardRow | undefined;
    if (!dashboard) return null;
    const rows = (await trx('dashboard_charts')
      .where({ dashboard_id: dashboard.id })
      .orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }])) as DashboardChartRow[];
    const fingerprint = await layoutFingerprint(trx, dashboard.id, caller.workspaceId, Boolean(sources.channels));
    return { dashboard, rows, fingerprint };
  });
  if (!found) return null;
  // The maker's role and groups decide what they can read, so they are part of what is reused.
  const key = `${share.id}:${membership.effectiveRole}:${[...membership.groupIds].sort().join(',')}`;
  const reused = cache.get(key, found.fingerprint);
  if (reused) return reused;
  const charts: PublicDashboardChartView[] = [];
  for (const row of found.rows) {
    if (row.kind === 'PROJECT_CHART' && row.project_chart_id) {
      const figures = await sources.research.projectChartFigures(member, row.project_chart_id, true);
      if (figures)
        charts.push({
          id: row.id,
          kind: row.kind,
          title: figures.title,
          projectTitle: figures.projectTitle,
          projectChart: figures,
          channel: null,
        });
    } else {
      const channel =
        row.channel_id && sources.channels ? await sources.channels.channel(member, row.channel_id) : null;
      const drawn = channel ? await channelChartView(member, sources, row) : null;
      const view = drawn && (await withPublicThemeTitles(member, sources.research, drawn));
      if (channel && view)
        charts.push({
          id: row.id,
          kind: row.kind,
          title: row.title ?? channel.name,
          projectTitle: null,
          projectChart: null,
          channel: view,
        });
    }
  }
  const view: PublicDashboardView = {
    kind: 'PublicDashboard',
    id: found.dashboard.id,
    title: found.dashboard.title,
    charts,
  };
  cache.set(key, found.fingerprint, view);
  return view;
}

export function dashboardShareType(moduleCtx: ModuleContext, sources: ChartSources): ShareTypeProvider {
  const cache = new SharedFigures<PublicDashboardView>(moduleCtx.config.shareLinks.cacheSeconds * 1000);
  return {
    type: 'dashboard',
    // Every member reads every dashboard of their workspace; one of another workspace is not found.
    assertReadable: async (trx, caller, id) => {
      await dashboardFor(trx, caller, id, 'read');
    },
    publicObject: (share) => publicDashboard(moduleCtx, sources, share, cache),
    path: (token) => `/p/dashboard/${token}`,
  };
}

export const dashboardSharingTypeDefs = /* GraphQL */ `
  extend enum ShareObjectType { dashboard }
  extend union PublicObject = PublicDashboard

  enum ChannelChartMeasure { OVER_TIME BY_THEME }
  enum ChannelChartType { BAR LINE PIE }

  type ChannelChartTheme { id: ID!, title: String!, count: Int! }
  "One day, week or month: its data points, and those of each theme drawn (in the order of themes)."
  type ChannelChartBucket { start: DateTime!, total: Int!, counts: [Int!]! }

  "A channel's data points by theme: the largest 8 themes drawn one by one, the rest in totals."
  type ChannelChartData {
    measure: ChannelChartMeasure!
    chartType: ChannelChartType!
    interval: DashboardInterval!
    total: Int!
    themes: [ChannelChartTheme!]!
    "Oldest first, empty buckets included, at most 400."
    series: [ChannelChartBucket!]!
  }

  "A shared dashboard: the charts its link's maker can read, with their figures (no highlight or data point text)."
  type PublicDashboard {
    id: ID!
    title: String!
    charts: [PublicDashboardChart!]!
  }

  type PublicDashboardChart {
    id: ID!
    kind: DashboardChartKind!
    title: String!
    projectTitle: String
    projectChart: PublicProjectChart
    channel: ChannelChartData
  }
`;
