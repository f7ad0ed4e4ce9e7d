import type { IResolvers } from '@graphql-tools/utils';
import type { Knex } from 'knex';
import { operations, type RequestContext } from '@fieldbook/core';
import { createShareLink, revokeShareLink, shareLinks } from './links.ts';
import type { ShareRow } from './share-row.ts';
import { sharedObject } from './public-view.ts';
import type { ShareTypes } from './types.ts';

type Args = Record<string, unknown>;

export function sharingResolvers(app: Knex, publicUrl: URL, types: ShareTypes): IResolvers<unknown, RequestContext> {
  const path = (s: ShareRow) => types.get(s.object_type)?.path(s.token) ?? `/p/${s.token}`;
  return {
    Query: {
      ...operations({ shareLinks: (ctx: RequestContext, args: unknown) => shareLinks(ctx, args, types) }),
      sharedObject: (_p: unknown, _args: Args, ctx: RequestContext) => sharedObject(app, ctx, types),
    },
    Mutation: operations({
      createShareLink: (ctx: RequestContext, args: unknown) => createShareLink(ctx, args, types),
      revokeShareLink: (ctx: RequestContext, args: unknown) => revokeShareLink(ctx, args, types),
    }),
    ShareLink: {
      path,
      url: (s: ShareRow) => new URL(path(s), publicUrl).toString(),
      objectType: (s: ShareRow) => s.object_type,
      objectId: (s: ShareRow) => s.object_id,
      payload: (s: ShareRow) => s.payload ?? {},
      createdById: (s: ShareRow) => s.created_by,
      createdAt: (s: ShareRow) => s.created_at,
      revokedAt: (s: ShareRow) => s.revoked_at,
      active: (s: ShareRow) => !s.revoked_at,
    },
    PublicObject: {
      __resolveType: (v: { kind: string }) => v.kind,
    },
  };
}
