import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { foldersResolvers } from './resolvers.ts';
import { foldersTypeDefs } from './schema.ts';

export const foldersPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: foldersTypeDefs,
  resolvers: foldersResolvers(),
});
