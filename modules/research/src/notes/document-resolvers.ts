import type { RequestContext } from '@fieldbook/core';
import type { ProjectRow } from '../projects/access.ts';
import { isStarred } from './stars.ts';
import type { DocumentView } from './documents.ts';
import { rowDetails } from '../views/row-details.ts';

type Args = Record<string, unknown>;

export const PREVIEW_LENGTH = 240;

/** The start of a document's text on one line, for lists that show what a note says without its whole text. */
export function documentPreview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_LENGTH ? flat : `${flat.slice(0, PREVIEW_LENGTH - 1).trimEnd()}…`;
}

/** The list details of one item read on its own, when it was not fetched as part of a list page. */
async function ownDetails(d: DocumentView, ctx: RequestContext): Promise<NonNullable<DocumentView['listed']>> {
  if (d.listed) return d.listed;
  const details = await ctx.tx((trx) =>
    rowDetails(trx, d.caller.workspaceId, d.kind === 'notes' ? 'NOTE' : 'INSIGHT', [d]),
  );
  return { tags: details.tags.get(d.id) ?? [], highlightCount: details.highlightCounts.get(d.id) ?? 0 };
}

/** Field resolvers shared by Note and Insight. */
export const documentFields = {
  projectId: (d: DocumentView) => d.project_id,
  project: (d: DocumentView, _a: Args, ctx: RequestContext) =>
    ctx.tx(async (trx) => ({
      ...((await trx('projects').where({ id: d.project_id }).first()) as ProjectRow),
      caller: d.caller,
    })),
  contentText: (d: DocumentView) => d.content_text,
  preview: (d: DocumentView) => documentPreview(d.content_text),
  rowTags: async (d: DocumentView, _a: Args, ctx: RequestContext) => (await ownDetails(d, ctx)).tags,
  highlightCount: async (d: DocumentView, _a: Args, ctx: RequestContext) => (await ownDetails(d, ctx)).highlightCount,
  starred: (d: DocumentView, _a: Args, ctx: RequestContext) =>
    ctx.tx((trx) =>
      isStarred(trx, d.caller.workspaceId, d.caller.userId, d.kind === 'notes' ? 'NOTE' : 'INSIGHT', d.id),
    ),
  createdById: (d: DocumentView) => d.created_by,
  updatedById: (d: DocumentView) => d.updated_by,
  createdAt: (d: DocumentView) => d.created_at,
  updatedAt: (d: DocumentView) => d.updated_at,
  deletedAt: (d: DocumentView) => d.deleted_at,
};
