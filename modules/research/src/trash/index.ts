import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { trashTypeDefs } from './schema.ts';
import { listTrash, restoreItem } from './trash.ts';

type Args = Record<string, unknown>;

export const trashPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: trashTypeDefs,
  resolvers: {
    Query: { trash: (_p: unknown, args: Args, ctx: RequestContext) => listTrash(ctx, args) },
    Mutation: { restore: (_p: unknown, args: Args, ctx: RequestContext) => restoreItem(ctx, args) },
  },
});
