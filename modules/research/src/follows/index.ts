import type { ModuleGraphql } from '@fieldbook/core';
import { follow, getFollow, listFollows, unfollow } from './follows.ts';
import { FOLLOW_OBJECT_TYPES, type FollowObjectType } from './object-types.ts';
import { followsTypeDefs } from './schema.ts';
import { FOLLOW_OPTION_LABELS } from './options.ts';

export { publishToFollowers, followActivitySubscriber, FOLLOW_NOTIFICATION_TYPES } from './fanout.ts';

/** Following projects, insights and tags: the research module's follows part. */
export function followsPart(): ModuleGraphql {
  return {
    typeDefs: followsTypeDefs,
    resolvers: {
      Query: {
        follow: (_p: unknown, args: unknown, ctx) => getFollow(ctx, args),
        followOptions: (_p: unknown, args: { objectType: FollowObjectType }) =>
          FOLLOW_OBJECT_TYPES.includes(args.objectType) ? FOLLOW_OPTION_LABELS[args.objectType] : [],
        follows: (_p: unknown, _a: unknown, ctx) => listFollows(ctx),
      },
      Mutation: {
        followObject: (_p: unknown, args: unknown, ctx) => follow(ctx, args),
        unfollowObject: (_p: unknown, args: unknown, ctx) => unfollow(ctx, args),
      },
    },
  };
}
