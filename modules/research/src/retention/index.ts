import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { retentionTypeDefs } from './schema.ts';
import { getDataRetention, updateDataRetention } from './settings.ts';

export { dataRetentionJob, dataRetentionSweepJob } from './job.ts';

/** The workspace's data retention setting; the daily jobs apply it. */
export const retentionPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: retentionTypeDefs,
  resolvers: {
    Query: { dataRetention: (_p: unknown, _a: unknown, ctx: RequestContext) => getDataRetention(ctx) },
    Mutation: {
      updateDataRetention: (_p: unknown, args: Record<string, unknown>, ctx: RequestContext) =>
        updateDataRetention(ctx, args),
    },
  },
});
