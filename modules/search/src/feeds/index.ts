import type { IResolvers } from '@graphql-tools/utils';
import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { createFeed, deleteFeed, getFeed, listFeeds, updateFeed } from './feeds.ts';
import { getSearchLayout, setSearchLayout } from './layout.ts';
import { feedsTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;

function feedsResolvers(): IResolvers<unknown, RequestContext> {
  return {
    Query: {
      savedFeeds: (_p: unknown, _a: Args, ctx: RequestContext) => listFeeds(ctx),
      savedFeed: (_p: unknown, args: Args, ctx: RequestContext) => getFeed(ctx, args),
      searchLayout: (_p: unknown, _a: Args, ctx: RequestContext) => getSearchLayout(ctx),
    },
    Mutation: {
      createSavedFeed: (_p: unknown, args: Args, ctx: RequestContext) => createFeed(ctx, args),
      updateSavedFeed: (_p: unknown, args: Args, ctx: RequestContext) => updateFeed(ctx, args),
      deleteSavedFeed: (_p: unknown, args: Args, ctx: RequestContext) => deleteFeed(ctx, args),
      setSearchLayout: (_p: unknown, args: Args, ctx: RequestContext) => setSearchLayout(ctx, args),
    },
  };
}

/** Saved feeds and the search layout preference. */
export const feedsPart = (_ctx: ModuleContext): ModuleGraphql => ({ typeDefs: feedsTypeDefs, resolvers: feedsResolvers() });
