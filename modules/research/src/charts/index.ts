import type { IResolvers } from '@graphql-tools/utils';
import { operations, type ModuleContext, type ModuleGraphql, type RequestContext } from '@fieldbook/core';
import { chartsTypeDefs } from './schema.ts';
import { createChart, deleteChart, getChart, listCharts, updateChart, type ChartRecord } from './charts.ts';
import { chartHighlights, chartItems } from './data.ts';

function chartsResolvers(): IResolvers<unknown, RequestContext> {
  return {
    Query: operations({ projectCharts: listCharts, projectChart: getChart, projectChartHighlights: chartHighlights }),
    Mutation: operations({
      createProjectChart: createChart,
      updateProjectChart: updateChart,
      deleteProjectChart: deleteChart,
    }),
    ProjectChart: {
      projectId: (c: ChartRecord) => c.project_id,
      projectTitle: (c: ChartRecord, _a: unknown, ctx: RequestContext) =>
        ctx.tx(
          async (trx) =>
            ((await trx('projects').where({ id: c.project_id }).first('title')) as { title: string } | undefined)
              ?.title ?? '',
        ),
      groupBy: (c: ChartRecord) => c.group_by,
      type: (c: ChartRecord) => c.chart_type,
      filter: (c: ChartRecord) => ({ collapsedGroupIds: c.collapsed_group_ids, hiddenItemIds: c.hidden_item_ids }),
      items: (c: ChartRecord, _a: unknown, ctx: RequestContext) => ctx.tx((trx) => chartItems(trx, c)),
      createdAt: (c: ChartRecord) => c.created_at,
      updatedAt: (c: ChartRecord) => c.updated_at,
    },
  };
}

export const chartsPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: chartsTypeDefs,
  resolvers: chartsResolvers(),
});
