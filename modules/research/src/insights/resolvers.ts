import type { IResolvers } from '@graphql-tools/utils';
import type { EventBus, RequestContext } from '@fieldbook/core';
import { documentFields } from '../notes/document-resolvers.ts';
import {
  createDocument,
  deleteDocument,
  getDocument,
  listDocuments,
  moveDocument,
  setPublished,
  updateDocument,
  type DocumentView,
} from '../notes/documents.ts';

type Args = Record<string, unknown>;

export function insightsResolvers(events: EventBus): IResolvers<unknown, RequestContext> {
  return {
    Query: {
      insights: (_p: unknown, args: Args, ctx: RequestContext) => listDocuments(ctx, 'insights', args),
      insight: (_p: unknown, args: Args, ctx: RequestContext) => getDocument(ctx, 'insights', args),
    },
    Mutation: {
      createInsight: (_p: unknown, args: Args, ctx: RequestContext) => createDocument(ctx, 'insights', args, events),
      updateInsight: (_p: unknown, args: Args, ctx: RequestContext) => updateDocument(ctx, 'insights', args, events),
      moveInsight: (_p: unknown, args: Args, ctx: RequestContext) => moveDocument(ctx, 'insights', args),
      publishInsight: (_p: unknown, args: Args, ctx: RequestContext) => setPublished(ctx, args, true, events),
      unpublishInsight: (_p: unknown, args: Args, ctx: RequestContext) => setPublished(ctx, args, false, events),
      deleteInsight: (_p: unknown, args: Args, ctx: RequestContext) => deleteDocument(ctx, 'insights', args),
    },
    Insight: {
      ...documentFields,
      published: (d: DocumentView) => Boolean(d.published_at),
      publishedAt: (d: DocumentView) => d.published_at ?? null,
    },
  };
}
