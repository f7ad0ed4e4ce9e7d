import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { highlightsResolvers } from './resolvers.ts';
import { highlightsTypeDefs } from './schema.ts';

export const highlightsPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: highlightsTypeDefs,
  resolvers: highlightsResolvers(),
});
