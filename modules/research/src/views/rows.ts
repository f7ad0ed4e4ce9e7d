import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, validate, type RequestContext } from '@fieldbook/core';
import { itemFilterSql } from '@fieldbook/search/item-filter';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { readViewData, type ViewData, type ViewObjectType } from './settings.ts';
import { viewFor } from './views.ts';
import { documentPreview } from '../notes/document-resolvers.ts';
import { rowDetails, type ViewRowTag } from './row-details.ts';

export type { ViewRowTag };

/**
 * The rows of a project view: the project's notes, insights or highlights that the view's saved
 * filter keeps, in its saved sort, a page at a time, each with its tags and field values, so a
 * table of ten thousand rows loads in a few requests and shows the first page at once.
 */
export const ROW_LIMITS = { page: 1000, defaultPage: 200 } as const;

export interface ViewRowRecord {
  id: string;
  objectType: ViewObjectType;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  createdById: string | null;
  /** Notes and insights: who created or last changed it (the Contributors a filter tests). */
  contributorIds: string[];
  published: boolean | null;
  publishedAt: Date | null;
  archived: boolean | null;
  locked: boolean | null;
  noteId: string | null;
  noteTitle: string | null;
  color: string | null;
  /** Notes and insights: the start of their text on one line. */
  preview: string | null;
  /** Notes and insights: the first image, or a video's poster, in their content. */
  thumbnailUrl: string | null;
  summary: string | null;
  highlightCount: number | null;
  insights: Array<{ id: string; title: string }>;
  tags: ViewRowTag[];
  values: Array<{ fieldId: string; value: unknown }>;
}

export interface ViewRowPage {
  rows: ViewRowRecord[];
  totalCount: number;
  endCursor: string | null;
  hasNextPage: boolean;
}

const argsSchema = z.object({
  viewId: idSchema('viewId'),
  first: z
    .number()
    .int('first must be a whole number.')
    .min(1, 'first must be at least 1.')
    .max(ROW_LIMITS.page, `A page of view rows has at most ${ROW_LIMITS.page} rows.`)
    .nullish(),
  after: z.string().max(100, 'This cursor is not valid. Start again from the first page.').nullish(),
});

const encodeOffset = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');
function decodeOffset(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const n = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (n === undefined) throw badInput('after', 'This cursor is not valid. Start again from the first page.');
  return Number(n);
}

/** The first image in a document, or the poster of its first video: the thumbnail a row shows. */
const THUMBNAIL = `(select coalesce(n #>> '{attrs,poster}', case when n ->> 'type' = 'image' then n #>> '{attrs,src}' end)
  from jsonb_path_query(t.content, 'strict $.**') as n where jsonb_typeof(n) = 'object' and n ->> 'type' in ('image', 'video') limit 1) as thumbnail`;

/** Only web addresses are shown as images: a document could carry anything in an attribute. */
export function safeImageUrl(url: string | null | undefined): string | null {
  if (!url || url.length > 2000) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

const UUID_IN_FIELD = /^field\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The ORDER BY of the view's sort; fields an object type lacks are skipped, newest first breaks ties. */
function orderSql(sort: ViewData['sort'], type: ViewObjectType): { text: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const s of sort) {
    const dir = s.direction === 'ASC' ? 'asc' : 'desc';
    const custom = UUID_IN_FIELD.exec(s.field)?.[1];
    if (custom && type !== 'HIGHLIGHT') {
      parts.push(
        `(select v.value from field_values v where v.field_id = ?::uuid and v.object_type = ? and v.object_id = t.id) ${dir} nulls last`,
      );
      values.push(custom.toLowerCase(), type);
      continue;
    }
    const column: Record<string, string | undefined> = {
      Title: type === 'HIGHLIGHT' ? 'lower(t.text)' : 'lower(t.title)',
      Content: type === 'HIGHLIGHT' ? 'lower(t.text)' : undefined,
      Highlight: type === 'HIGHLIGHT' ? 'lower(t.text)' : undefined,
      Created: 't.created_at',
      Updated: 't.updated_at',
      Published: type === 'INSIGHT' ? 't.published_at' : undefined,
      PublishedAt: type === 'INSIGHT' ? 't.published_at' : undefined,
      HighlightCount:
        type === 'HIGHLIGHT'
          ? undefined
          : `(select count(*) from highlights h where h.${type === 'NOTE' ? 'note_id' : 'insight_id'} = t.id and h.deleted_at is null)`,
      Archived: type === 'HIGHLIGHT' ? undefined : 't.archived',
    };
    const expression = column[s.field];
    if (expression) parts.push(`${expression} ${dir} nulls last`);
  }
  parts.push('t.created_at desc', 't.id desc');
  return { text: parts.join(', '), values };
}

interface BaseRow {
  id: string;
  title: string | null;
  text: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string | null;
  published_at?: Date | null;
  archived?: boolean;
  locked?: boolean;
  note_id?: string | null;
  note_title?: string | null;
  color?: string | null;
  content_text?: string;
  updated_by?: string | null;
  summary?: unknown;
  thumbnail?: string | null;
  total: string | number;
}

export async function viewRowsPage(
  trx: Knex.Transaction,
  ctx: { workspaceId: string; userId: string; now: Date },
  view: { project_id: string; object_type: ViewObjectType; view_data: unknown },
  first: number,
  offset: number,
): Promise<ViewRowPage> {
  const type = view.object_type;
  const settings = readViewData(view.view_data);
  const filter = itemFilterSql(settings.filter, type, { now: ctx.now, userId: ctx.userId }, 'filter');
  const order = orderSql(settings.sort, type);
  const columns =
    type === 'HIGHLIGHT'
      ? 't.id, null as title, t.text, t.created_at, t.updated_at, t.created_by, t.note_id, t.color, n.title as note_title'
      : `t.id, t.title, null as text, t.created_at, t.updated_at, t.created_by, t.updated_by, t.archived, t.locked, left(t.content_text, 2000) as content_text, ${THUMBNAIL}${type === 'INSIGHT' ? ', t.published_at, t.summary' : ''}`;
  const where: string[] = ['t.workspace_id = ?', 't.project_id = ?', 't.deleted_at is null'];
  const values: unknown[] = [ctx.workspaceId, view.project_id];
  // A highlight of a note in the trash goes with its note.
  const from = type === 'HIGHLIGHT' ? `${filter.from} left join notes n on n.id = t.note_id` : filter.from;
  if (type === 'HIGHLIGHT') where.push('(n.id is null or n.deleted_at is null)');
  if (filter.where) {
    where.push(filter.where.text);
    values.push(...filter.where.values);
  }
  const statement = `select ${columns}, count(*) over () as total from ${from} where ${where.join(' and ')} order by ${order.text} limit ? offset ?`;
  const result = (await trx.raw(statement, [...values, ...order.values, first + 1, offset] as Knex.RawBinding[])) as {
    rows: BaseRow[];
  };
  const base = result.rows.slice(0, first);
  const total = Number(result.rows[0]?.total ?? (offset > 0 ? await countRows(trx, from, where, values) : 0));

  const details = await rowDetails(trx, ctx.workspaceId, type, base);

  const rows = base.map(
    (r): ViewRowRecord => ({
      id: r.id,
      objectType: type,
      title: type === 'HIGHLIGHT' ? (r.text ?? '') : (r.title ?? ''),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      createdById: r.created_by,
      contributorIds:
        type === 'HIGHLIGHT' ? [] : [...new Set([r.created_by, r.updated_by].filter((u): u is string => Boolean(u)))],
      published: type === 'INSIGHT' ? Boolean(r.published_at) : null,
      publishedAt: r.published_at ?? null,
      archived: type === 'HIGHLIGHT' ? null : Boolean(r.archived),
      locked: type === 'HIGHLIGHT' ? null : Boolean(r.locked),
      noteId: r.note_id ?? null,
      noteTitle: r.note_title ?? null,
      color: r.color ?? null,
      preview: type === 'HIGHLIGHT' ? null : documentPreview(r.content_text ?? ''),
      thumbnailUrl: safeImageUrl(r.thumbnail),
      summary: details.summaries.get(r.id) ?? null,
      highlightCount: type === 'HIGHLIGHT' ? null : (details.highlightCounts.get(r.id) ?? 0),
      insights: details.insights.get(r.id) ?? [],
      tags: details.tags.get(r.id) ?? [],
      values: details.values.get(r.id) ?? [],
    }),
  );
  const hasNextPage = result.rows.length > first;
  return { rows, totalCount: total, hasNextPage, endCursor: hasNextPage ? encodeOffset(offset + first) : null };
}

/** Past the last row the window count is gone; count once so the total stays right. */
async function countRows(trx: Knex.Transaction, from: string, where: string[], values: unknown[]): Promise<number> {
  const result = (await trx.raw(
    `select count(*) as n from ${from} where ${where.join(' and ')}`,
    values as Knex.RawBinding[],
  )) as { rows: Array<{ n: string }> };
  return Number(result.rows[0]?.n ?? 0);
}

export async function listViewRows(ctx: RequestContext, args: unknown): Promise<ViewRowPage> {
  const caller = callerOf(ctx, 'projects:read');
  const input = validate(argsSchema, args);
  const offset = decodeOffset(input.after);
  return ctx.tx(async (trx) => {
    const { view } = await viewFor(trx, caller, input.viewId, 'read');
    return viewRowsPage(
      trx,
      { workspaceId: caller.workspaceId, userId: caller.userId, now: new Date() },
      view,
      input.first ?? ROW_LIMITS.defaultPage,
      offset,
    );
  });
}
