import type { IResolvers } from '@graphql-tools/utils';
import { operations, type RequestContext } from '@fieldbook/core';
import type { DocumentRow } from '../notes/documents.ts';
import { highlightFill } from '../colors/colors.ts';
import { citeHighlight, citedHighlights, unciteHighlight } from './citations.ts';
import type { DocumentView } from '../notes/documents.ts';
import { createHighlight, deleteHighlight, listHighlights, type HighlightView } from './highlights.ts';

type Args = Record<string, unknown>;

export function highlightsResolvers(): IResolvers<unknown, RequestContext> {
  return {
    Query: operations({ highlights: listHighlights }),
    Mutation: operations({ createHighlight, deleteHighlight, citeHighlight, unciteHighlight }),
    Insight: {
      highlights: (d: DocumentView, _a: Args, ctx: RequestContext) =>
        ctx.tx((trx) => citedHighlights(trx, d.caller, d.id)),
    },
    Highlight: {
      projectId: (h: HighlightView) => h.project_id,
      noteId: (h: HighlightView) => h.note_id,
      insightId: (h: HighlightView) => h.insight_id,
      note: (h: HighlightView, _a: Args, ctx: RequestContext) =>
        h.note_id
          ? ctx.tx(async (trx) => {
              const row = (await trx('notes').where({ id: h.note_id }).whereNull('deleted_at').first()) as
                | DocumentRow
                | undefined;
              return row ? { ...row, kind: 'notes', caller: h.caller } : null;
            })
          : null,
      startOffset: (h: HighlightView) => h.start_offset,
      endOffset: (h: HighlightView) => h.end_offset,
      displayColor: (h: HighlightView) => (h.color ? highlightFill(h.color) : null),
      createdById: (h: HighlightView) => h.created_by,
      createdAt: (h: HighlightView) => h.created_at,
      updatedAt: (h: HighlightView) => h.updated_at,
      deletedAt: (h: HighlightView) => h.deleted_at,
    },
  };
}
