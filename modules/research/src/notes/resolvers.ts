import type { IResolvers } from '@graphql-tools/utils';
import type { EventBus, RequestContext } from '@fieldbook/core';
import { documentFields } from './document-resolvers.ts';
import {
  createDocument,
  deleteDocument,
  getDocument,
  listDocuments,
  moveDocument,
  updateDocument,
  type DocumentView,
} from './documents.ts';
import { highlightsOfNote } from '../highlights/highlights.ts';

type Args = Record<string, unknown>;

export function notesResolvers(events: EventBus): IResolvers<unknown, RequestContext> {
  return {
    Query: {
      notes: (_p: unknown, args: Args, ctx: RequestContext) => listDocuments(ctx, 'notes', args),
      note: (_p: unknown, args: Args, ctx: RequestContext) => getDocument(ctx, 'notes', args),
    },
    Mutation: {
      createNote: (_p: unknown, args: Args, ctx: RequestContext) => createDocument(ctx, 'notes', args, events),
      updateNote: (_p: unknown, args: Args, ctx: RequestContext) => updateDocument(ctx, 'notes', args, events),
      moveNote: (_p: unknown, args: Args, ctx: RequestContext) => moveDocument(ctx, 'notes', args),
      deleteNote: (_p: unknown, args: Args, ctx: RequestContext) => deleteDocument(ctx, 'notes', args),
    },
    Note: {
      ...documentFields,
      highlights: (d: DocumentView, _a: Args, ctx: RequestContext) =>
        ctx.tx((trx) => highlightsOfNote(trx, d.caller, d.id)),
    },
  };
}
