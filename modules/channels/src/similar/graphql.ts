import type { ModuleGraphql, RequestContext } from '@fieldbook/core';
import { presentDataPoints } from '../datapoints/present.ts';
import { similarDataPoints, type SimilarRow } from './similar.ts';

/** Similar data points (002 §9: trigram similarity over the first 50 characters). */
export function similarGraphql(): ModuleGraphql {
  return {
    typeDefs: /* GraphQL */ `
      extend type Query {
        "Data points of the same channel whose first 50 characters are most alike this one's (trigram similarity of at least 0.3), most alike first; first is 1 to 50, default 5."
        channelSimilarDataPoints(id: ID!, first: Int): [ChannelSimilarDataPoint!]!
      }
      type ChannelSimilarDataPoint {
        "0 to 1: the share of trigrams the two first 50 characters have in common."
        similarity: Float!
        dataPoint: ChannelDataPoint!
      }
    `,
    resolvers: {
      Query: {
        channelSimilarDataPoints: async (_p: unknown, args: Record<string, unknown>, ctx: RequestContext) => {
          const rows = await similarDataPoints(ctx, args);
          if (!rows.length) return [];
          const views = await ctx.tx((trx) => presentDataPoints(trx, rows[0]!.workspace_id, rows));
          return views.map((view, i) => ({ similarity: (rows[i] as SimilarRow).similarity, dataPoint: view }));
        },
      },
    },
  };
}
