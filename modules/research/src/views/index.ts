import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { viewsResolvers } from './resolvers.ts';
import { viewsTypeDefs } from './schema.ts';

export const viewsPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: viewsTypeDefs,
  resolvers: viewsResolvers(),
});
