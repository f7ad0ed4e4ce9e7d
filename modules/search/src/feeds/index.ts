import type { IResolvers } from '@graphql-tools/utils';
import { operations, type ModuleContext, type ModuleGraphql, type RequestContext } from '@fieldbook/core';
import { createFeed, deleteFeed, getFeed, listFeeds, updateFeed } from './feeds.ts';
import { getSearchLayout, setSearchLayout } from './layout.ts';
import { feedsTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;

function feedsResolvers(): IResolvers<unknown, RequestContext> {
  return {
    Query: {
      savedFeeds: (_p: unknown, _a: Args, ctx: RequestContext) => listFeeds(ctx),
      ...operations({ savedFeed: getFeed }),
      searchLayout: (_p: unknown, _a: Args, ctx: RequestContext) => getSearchLayout(ctx),
    },
    Mutation: operations({
      createSavedFeed: createFeed,
      updateSavedFeed: updateFeed,
      deleteSavedFeed: deleteFeed,
      setSearchLayout,
    }),
  };
}

/** Saved feeds and the search layout preference. */
export const feedsPart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: feedsTypeDefs,
  resolvers: feedsResolvers(),
});
