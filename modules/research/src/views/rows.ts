import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, validate, type RequestContext } from '@fieldbook/core';
import { itemFilterSql } from '@fieldbook/search/item-filter';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { readViewData, type ViewData, type ViewObjectType } from './settings.ts';
import { viewFor } from './views.ts';

/**
 * The rows of a project view: the project's notes, insights or highlights that the view's saved
 * filter keeps, in its saved sort, a page at a time, each with its tags and field values, so a
 * table of ten thousand rows loads in a few requests and shows the first page at once.
 */
export const ROW_LIMITS = { page: 1000, defaultPage: 200 } as const;

export interface ViewRowTag {
  id: string;
  title: string;
  color: string;
}

export interface ViewRowRecord {
  id: string;
  objectType: ViewObjectType;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  createdById: string | null;
  published: boolean | null;
  archived: boolean | null;
  locked: boolean | null;
  noteId: string | null;
  noteTitle: string | null;
  color: string | null;
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

const UUID_IN_FIELD = /^field\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The ORDER BY of the view's sort; fields an object type lacks are skipped, newest first breaks ties. */
function orderSql(sort: ViewData['sort'], type: ViewObjectType): { text: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const s of sort) {
    const dir = s.direction === 'ASC' ? 'asc' : 'desc';
    const custom = UUID_IN_FIELD.exec(s.field)?.[1];
    if (custom && type !== 'HIGHLIGHT') {
      parts.push(`(select v.value from field_values v where v.field_id = ?::uuid and v.object_type = ? and v.object_id = t.id) ${dir} nulls last`);
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
  total: string | number;
}

export async function viewRowsPage(trx: Knex.Transaction, ctx: { workspaceId: string; userId: string; now: Date }, view: { project_id: string; object_type: ViewObjectType; view_data: unknown }, first: number, offset: number): Promise<ViewRowPage> {
  const type = view.object_type;
  const settings = readViewData(view.view_data);
  const filter = itemFilterSql(settings.filter, type, { now: ctx.now, userId: ctx.userId }, 'filter');
  const order = orderSql(settings.sort, type);
  const columns =
    type === 'HIGHLIGHT'
      ? 't.id, null as title, t.text, t.created_at, t.updated_at, t.created_by, t.note_id, t.color, n.title as note_title'
      : `t.id, t.title, null as text, t.created_at, t.updated_at, t.created_by, t.archived, t.locked${type === 'INSIGHT' ? ', t.published_at' : ''}`;
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
  const result = (await trx.raw(statement, [...values, ...order.values, first + 1, offset] as Knex.RawBinding[])) as { rows: BaseRow[] };
  const base = result.rows.slice(0, first);
  const ids = base.map((r) => r.id);
  const total = Number(result.rows[0]?.total ?? (offset > 0 ? await countRows(trx, from, where, values) : 0));

  const tags = new Map<string, ViewRowTag[]>();
  const values_ = new Map<string, Array<{ fieldId: string; value: unknown }>>();
  if (ids.length) {
    const link = type === 'HIGHLIGHT' ? { table: 'highlight_tags', column: 'highlight_id' } : type === 'NOTE' ? { table: 'note_tags', column: 'note_id' } : null;
    if (link) {
      const tagRows = (await trx(`${link.table} as l`)
        .join('tags as g', 'g.id', 'l.tag_id')
        .whereIn(`l.${link.column}`, ids)
        .orderBy([{ column: 'g.title' }, { column: 'g.id' }])
        .select(`l.${link.column} as object_id`, 'g.id', 'g.title', 'g.color')) as Array<ViewRowTag & { object_id: string }>;
      for (const t of tagRows) {
        if (!tags.has(t.object_id)) tags.set(t.object_id, []);
        tags.get(t.object_id)!.push({ id: t.id, title: t.title, color: t.color });
      }
    }
    if (type !== 'HIGHLIGHT') {
      const valueRows = (await trx('field_values')
        .where({ workspace_id: ctx.workspaceId, object_type: type })
        .whereIn('object_id', ids)
        .select('object_id', 'field_id', 'value')) as Array<{ object_id: string; field_id: string; value: unknown }>;
      for (const v of valueRows) {
        if (!values_.has(v.object_id)) values_.set(v.object_id, []);
        values_.get(v.object_id)!.push({ fieldId: v.field_id, value: v.value });
      }
    }
  }

  const rows = base.map(
    (r): ViewRowRecord => ({
      id: r.id,
      objectType: type,
      title: type === 'HIGHLIGHT' ? (r.text ?? '') : (r.title ?? ''),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      createdById: r.created_by,
      published: type === 'INSIGHT' ? Boolean(r.published_at) : null,
      archived: type === 'HIGHLIGHT' ? null : Boolean(r.archived),
      locked: type === 'HIGHLIGHT' ? null : Boolean(r.locked),
      noteId: r.note_id ?? null,
      noteTitle: r.note_title ?? null,
      color: r.color ?? null,
      tags: tags.get(r.id) ?? [],
      values: values_.get(r.id) ?? [],
    }),
  );
  const hasNextPage = result.rows.length > first;
  return { rows, totalCount: total, hasNextPage, endCursor: hasNextPage ? encodeOffset(offset + first) : null };
}

/** Past the last row the window count is gone; count once so the total stays right. */
async function countRows(trx: Knex.Transaction, from: string, where: string[], values: unknown[]): Promise<number> {
  const result = (await trx.raw(`select count(*) as n from ${from} where ${where.join(' and ')}`, values as Knex.RawBinding[])) as { rows: Array<{ n: string }> };
  return Number(result.rows[0]?.n ?? 0);
}

export async function listViewRows(ctx: RequestContext, args: unknown): Promise<ViewRowPage> {
  const caller = callerOf(ctx, 'projects:read');
  const input = validate(argsSchema, args);
  const offset = decodeOffset(input.after);
  return ctx.tx(async (trx) => {
    const { view } = await viewFor(trx, caller, input.viewId, 'read');
    return viewRowsPage(trx, { workspaceId: caller.workspaceId, userId: caller.userId, now: new Date() }, view, input.first ?? ROW_LIMITS.defaultPage, offset);
  });
}
