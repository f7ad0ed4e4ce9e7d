import type { IResolvers } from '@graphql-tools/utils';
import type { Knex } from 'knex';
import { operations, type RequestContext } from '@fieldbook/core';
import { createShareLink, revokeShareLink, shareLinks, type ShareRow } from './links.ts';
import { sharedObject, type PublicView } from './public-view.ts';

type Args = Record<string, unknown>;

export function sharingResolvers(app: Knex, publicUrl: URL): IResolvers<unknown, RequestContext> {
  const path = (s: ShareRow) => `/p/${s.token}`;
  return {
    Query: {
      ...operations({ shareLinks }),
      sharedObject: (_p: unknown, _args: Args, ctx: RequestContext) => sharedObject(app, ctx),
    },
    Mutation: operations({ createShareLink, revokeShareLink }),
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
      __resolveType: (v: PublicView) => v.kind,
    },
  };
}
