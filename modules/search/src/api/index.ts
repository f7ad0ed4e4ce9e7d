import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import type { SearchEngine } from '../engine/engine.ts';
import { searchResolvers } from './resolvers.ts';
import { searchTypeDefs } from './schema.ts';

export const searchPart = (_ctx: ModuleContext, engine: SearchEngine): ModuleGraphql => ({
  typeDefs: searchTypeDefs,
  resolvers: searchResolvers(engine),
});
