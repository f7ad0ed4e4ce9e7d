import type { IResolvers } from '@graphql-tools/utils';
import { operations, type ModuleContext, type ModuleGraphql, type RequestContext } from '@fieldbook/core';
import { activityTypeDefs } from './schema.ts';
import { recentDocuments, tagHighlights } from './recent.ts';

type Args = Record<string, unknown>;

const resolvers: IResolvers<unknown, RequestContext> = {
  Query: {
    recentNotes: (_p: unknown, args: Args, ctx: RequestContext) => recentDocuments(ctx, 'notes', args),
    recentInsights: (_p: unknown, args: Args, ctx: RequestContext) => recentDocuments(ctx, 'insights', args),
    ...operations({ tagHighlights }),
  },
};

export const activityPart = (_ctx: ModuleContext): ModuleGraphql => ({ typeDefs: activityTypeDefs, resolvers });
