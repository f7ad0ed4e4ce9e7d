import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { projectsResolvers } from './resolvers.ts';
import { projectsTypeDefs } from './schema.ts';

export const projectsPart = (ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: projectsTypeDefs,
  resolvers: projectsResolvers(ctx.events),
});
