import type { ModuleContext, ModuleGraphql } from '@fieldbook/core';
import { sharingResolvers } from './resolvers.ts';
import { sharingTypeDefs } from './schema.ts';
import { shareTypesOf } from './types.ts';

/**
 * Public share links. An anonymous request has no workspace for `ctx.tx` to scope, so the public
 * view opens its own transactions, scoped to the workspace its token belongs to.
 */
export const sharingPart = (ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: sharingTypeDefs,
  resolvers: sharingResolvers(ctx.db.app, ctx.config.publicUrl, shareTypesOf(ctx)),
});
