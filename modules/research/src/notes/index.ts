import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { notesResolvers } from './resolvers.ts';
import { notesTypeDefs } from './schema.ts';

export const notesPart = (ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: notesTypeDefs,
  resolvers: notesResolvers(ctx.events),
});
