import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import type { DocumentKind, DocumentRow, DocumentView } from '../notes/documents.ts';
import { readableProjectIds } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { CONTENT_LIMITS } from '../projects/limits.ts';
import { idSchema } from '../projects/inputs.ts';
import { tagFor, rethrowAs } from '../tags/access.ts';
import type { HighlightRow, HighlightView } from '../highlights/highlights.ts';

const first = (fallback: number) =>
  z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(CONTENT_LIMITS.pageSize, `A page can have at most ${CONTENT_LIMITS.pageSize} items.`)
    .nullish()
    .transform((v) => v ?? fallback);

const recentSchema = z.object({
  first: first(20),
  createdByMe: z.boolean().nullish(),
  published: z.boolean().nullish(),
});

/**
 * The latest notes or insights across every project the caller can read: the home, recent and
 * your-work screens list them without asking project by project.
 */
export async function recentDocuments(ctx: RequestContext, kind: DocumentKind, args: unknown): Promise<DocumentView[]> {
  const caller = callerOf(ctx, kind === 'notes' ? 'notes:read' : 'insights:read');
  const input = validate(recentSchema, args);
  return ctx.tx(async (trx) => {
    const projectIds = await readableProjectIds(trx, caller);
    if (!projectIds.length) return [];
    const q = trx(`${kind} as d`)
      .join('projects as p', 'p.id', 'd.project_id')
      .where('d.workspace_id', caller.workspaceId)
      .whereIn('d.project_id', projectIds)
      .whereNull('d.deleted_at')
      .whereNull('p.deleted_at')
      // Published insights are listed by when they were published (the home's "Discover new
      // insights"): a later edit to an old one does not make it new.
      .orderBy(
        kind === 'insights' && input.published
          ? [
              { column: 'd.published_at', order: 'desc' },
              { column: 'd.id', order: 'desc' },
            ]
          : [
              { column: 'd.updated_at', order: 'desc' },
              { column: 'd.id', order: 'desc' },
            ],
      )
      .limit(input.first)
      .select('d.*');
    if (input.createdByMe) q.where('d.created_by', caller.userId);
    if (kind === 'insights' && input.published != null) {
      if (input.published) q.whereNotNull('d.published_at');
      else q.whereNull('d.published_at');
    }
    const rows = (await q) as DocumentRow[];
    return rows.map((row) => ({ ...row, kind, caller }));
  });
}

const tagHighlightsSchema = z.object({ tagId: idSchema('tagId'), first: first(50) });

/** Highlights carrying a tag, out of the trash, in projects the caller can read. */
export async function tagHighlights(ctx: RequestContext, args: unknown): Promise<HighlightView[]> {
  const caller = callerOf(ctx, 'tags:read');
  const input = validate(tagHighlightsSchema, args);
  return ctx.tx(async (trx) => {
    await tagFor(trx, caller, input.tagId, 'read').catch(rethrowAs('That tag'));
    const projectIds = await readableProjectIds(trx, caller);
    if (!projectIds.length) return [];
    const rows = (await trx('highlights as h')
      .join('highlight_tags as ht', 'ht.highlight_id', 'h.id')
      .leftJoin('notes as n', 'n.id', 'h.note_id')
      .where('h.workspace_id', caller.workspaceId)
      .where('ht.tag_id', input.tagId)
      .whereIn('h.project_id', projectIds)
      .whereNull('h.deleted_at')
      .where((w) => w.whereNull('h.note_id').orWhereNull('n.deleted_at'))
      .orderBy([
        { column: 'h.created_at', order: 'desc' },
        { column: 'h.id', order: 'desc' },
      ])
      .limit(input.first)
      .select('h.*')) as HighlightRow[];
    return rows.map((row) => ({ ...row, caller }));
  });
}
