import { defineModule, operations, workspacesModule, type RequestContext } from '@fieldbook/core';
import channelsModule from '@fieldbook/channels';
import researchModule from '@fieldbook/research';
import {
  addDashboardChart,
  dashboardCharts,
  removeDashboardChart,
  type ChartSources,
  type DashboardChartView,
} from './charts.ts';
import {
  createDashboard,
  deleteDashboard,
  getDashboard,
  listDashboards,
  updateDashboard,
  type DashboardRecord,
} from './dashboards.ts';
import { dashboardsTypeDefs } from './schema.ts';
import { channelChartView, dashboardSharingTypeDefs, dashboardShareType } from './sharing.ts';

/**
 * Dashboards (000 §2): charts of several projects and channels on one page. Project charts are
 * research's; channels are optional, so a channel chart reads as unreadable without them.
 */
const dashboardsModule = defineModule({
  name: 'dashboards',
  dependsOn: [workspacesModule, researchModule],
  optionalDependsOn: [channelsModule],
  graphql: (ctx) => {
    const sources: ChartSources = { research: ctx.deps.research, channels: ctx.deps.channels };
    ctx.deps.research.registerShareType(dashboardShareType(ctx, sources));
    return {
      typeDefs: `${dashboardsTypeDefs}\n${dashboardSharingTypeDefs}`,
      resolvers: {
        Query: operations({ dashboards: listDashboards, dashboard: getDashboard }),
        Mutation: operations({
          createDashboard,
          updateDashboard,
          deleteDashboard,
          addDashboardChart: (ctx: RequestContext, args: unknown) => addDashboardChart(ctx, sources, args),
          removeDashboardChart,
        }),
        DashboardChart: {
          // Read with the viewer's own access: null when the channel is hidden from them or gone.
          channelData: (c: DashboardChartView, _a: unknown, rctx: RequestContext) =>
            c.readable ? channelChartView(rctx, sources, c.row) : null,
        },
        Dashboard: {
          charts: (d: DashboardRecord, _a: unknown, rctx: RequestContext) => dashboardCharts(rctx, sources, d.id),
          createdById: (d: DashboardRecord) => d.created_by,
          createdAt: (d: DashboardRecord) => d.created_at,
          updatedAt: (d: DashboardRecord) => d.updated_at,
        },
      },
    };
  },
});

export default dashboardsModule;
