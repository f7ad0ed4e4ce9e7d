import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import type { DocumentView } from '../notes/documents.ts';
import type { HighlightView } from '../highlights/highlights.ts';
import { makerOf, provenanceLoader, type MadeItemType } from './makers.ts';
import { provenanceTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;

const maker = (type: MadeItemType) => async (item: DocumentView | HighlightView, _a: Args, ctx: RequestContext) =>
  makerOf(await provenanceLoader(ctx, item.caller.workspaceId, type).load(item.id), item.created_by);

/** Who made a note, an insight or a highlight: a person, AI or an agent. */
export const provenancePart = (_ctx: ModuleContext): ModuleGraphql => ({
  typeDefs: provenanceTypeDefs,
  resolvers: {
    Note: { createdBy: maker('NOTE') },
    Insight: { createdBy: maker('INSIGHT') },
    Highlight: { createdBy: maker('HIGHLIGHT') },
  },
});
