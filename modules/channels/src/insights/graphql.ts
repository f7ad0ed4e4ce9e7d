import type { ModuleGraphql, RequestContext } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { presentDataPoints } from '../datapoints/present.ts';
import type { DataPointRow } from '../datapoints/read.ts';
import { citedDataPoints, createInsightFromDataPoints, dataPointsById } from './cite.ts';

type Args = Record<string, unknown>;

async function present(ctx: RequestContext, rows: DataPointRow[]) {
  return rows.length ? ctx.tx((trx) => presentDataPoints(trx, rows[0]!.workspace_id, rows)) : [];
}

/** Insights made of data points (000 §2 /insights/create/{activityWrapId}); only with research loaded. */
export function insightsGraphql(research: ResearchServices): ModuleGraphql {
  return {
    typeDefs: /* GraphQL */ `
      extend type Query {
        "Data points by id (1 to 100), in the order given; NOT_FOUND names the first one not readable."
        channelDataPointsById(ids: [ID!]!): [ChannelDataPoint!]!
      }
      extend type Mutation {
        """
        Makes an insight in a project of selected data points (1 to 100): it quotes each and cites
        them. Needs write access to the project; title defaults to "Insight from {channel}".
        """
        createInsightFromDataPoints(projectId: ID!, dataPointIds: [ID!]!, title: String): InsightFromDataPoints!
      }
      type InsightFromDataPoints {
        "The new insight: open it at /insights/{insightId}."
        insightId: ID!
        projectId: ID!
        title: String!
        "Data points it cites."
        citedCount: Int!
      }
      extend type Insight {
        "The data points the insight cites that are out of the trash, in the order they were cited."
        citedDataPoints: [ChannelDataPoint!]!
      }
    `,
    resolvers: {
      Query: {
        channelDataPointsById: async (_p: unknown, args: Args, ctx: RequestContext) =>
          present(ctx, await dataPointsById(ctx, args)),
      },
      Mutation: {
        createInsightFromDataPoints: async (_p: unknown, args: Args, ctx: RequestContext) => {
          const made = await createInsightFromDataPoints(ctx, research, args);
          return { insightId: made.id, projectId: made.projectId, title: made.title, citedCount: made.cited };
        },
      },
      Insight: {
        citedDataPoints: async (insight: { id: string }, _a: Args, ctx: RequestContext) =>
          present(ctx, await citedDataPoints(ctx, insight.id)),
      },
    },
  };
}
