import type { ModuleGraphql } from '@fieldbook/core';
import { follow, getFollow, listFollows, unfollow } from './follows.ts';
import { followsTypeDefs } from './schema.ts';

export { publishToFollowers, followActivitySubscriber, FOLLOW_NOTIFICATION_TYPES } from './fanout.ts';

/** Following projects, insights and tags: the research module's follows part. */
export function followsPart(): ModuleGraphql {
  return {
    typeDefs: followsTypeDefs,
    resolvers: {
      Query: { follow: (_p: unknown, args: unknown, ctx) => getFollow(ctx, args), follows: (_p: unknown, _a: unknown, ctx) => listFollows(ctx) },
      Mutation: { followObject: (_p: unknown, args: unknown, ctx) => follow(ctx, args), unfollowObject: (_p: unknown, args: unknown, ctx) => unfollow(ctx, args) },
    },
  };
}
