import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { insightsResolvers } from './resolvers.ts';
import { insightsTypeDefs } from './schema.ts';

export const insightsPart = (ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: insightsTypeDefs,
  resolvers: insightsResolvers(ctx.events),
});
