import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { channelShareLinks, createChannelShareLink, revokeChannelShareLink, type ChannelShareRow } from './links.ts';
import { sharedChannelData } from './public-view.ts';

type Args = Record<string, unknown>;

/** Public links to channels and datasets (000 §3), opened at /p/data/{token}. */
export function sharingGraphql(ctx: ModuleContext): ModuleGraphql {
  const path = (s: ChannelShareRow) => `/p/data/${s.token}`;
  return {
    typeDefs: /* GraphQL */ `
      extend type Query {
        "The live links of a channel or dataset, newest first (Contributor and above)."
        channelShareLinks(objectType: ChannelShareObjectType!, objectId: ID!): [ChannelShareLink!]!
        """
        What a channel or dataset link shows. Anonymous: send the link's token in the x-share-token
        header. NOT_FOUND once the link is revoked, public links are turned off or the channel is in
        the trash. first: data points listed, newest first (1 to 100, default 25).
        """
        sharedChannelData(first: Int): SharedChannelData!
      }
      extend type Mutation {
        "Makes a public link to a channel or dataset (Contributor and above; refused while the workspace has public links turned off)."
        createChannelShareLink(objectType: ChannelShareObjectType!, objectId: ID!): ChannelShareLink!
        "Ends a channel or dataset link at once."
        revokeChannelShareLink(id: ID!): ChannelShareLink!
      }
      enum ChannelShareObjectType { channel dataset }
      type ChannelShareLink {
        id: ID!
        "Exactly 12 letters or digits."
        token: String!
        "/p/data/{token}"
        path: String!
        url: String!
        objectType: ChannelShareObjectType!
        objectId: ID!
        createdAt: DateTime!
        revokedAt: DateTime
        active: Boolean!
      }
      type SharedChannelData {
        objectType: ChannelShareObjectType!
        sharedAt: DateTime!
        channel: PublicChannel!
        "The shared dataset; null for a channel link."
        dataset: PublicDataset
        dataPointCount: Int!
        "Newest first: their text, date and sentiment (never who gave them)."
        dataPoints: [PublicDataPoint!]!
      }
      type PublicChannel { name: String!, description: String }
      type PublicDataset { name: String!, source: String! }
      type PublicDataPoint { id: ID!, content: String!, createdAt: DateTime!, sentiment: ChannelSentiment }
    `,
    resolvers: {
      Query: {
        channelShareLinks: (_p: unknown, args: Args, rc: RequestContext) => channelShareLinks(rc, args),
        sharedChannelData: (_p: unknown, args: Args, rc: RequestContext) => sharedChannelData(ctx.db.app, rc, args),
      },
      Mutation: {
        createChannelShareLink: (_p: unknown, args: Args, rc: RequestContext) => createChannelShareLink(rc, args),
        revokeChannelShareLink: (_p: unknown, args: Args, rc: RequestContext) => revokeChannelShareLink(rc, args),
      },
      ChannelShareLink: {
        path,
        url: (s: ChannelShareRow) => new URL(path(s), ctx.config.publicUrl).toString(),
        objectType: (s: ChannelShareRow) => s.object_type,
        objectId: (s: ChannelShareRow) => s.object_id,
        createdAt: (s: ChannelShareRow) => s.created_at,
        revokedAt: (s: ChannelShareRow) => s.revoked_at,
        active: (s: ChannelShareRow) => !s.revoked_at,
      },
    },
  };
}
