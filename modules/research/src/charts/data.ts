import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, validate, type RequestContext } from '@fieldbook/core';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { chartFor, type ChartRow } from './charts.ts';
import { CHART_LIMITS } from './options.ts';

/**
 * What a project chart counts (000 §3). Each live highlight of the project (out of the trash,
 * as is its note) counts once per item it falls in: a tag, or in tag-group charts the tag's group.
 * A collapsed group draws its tags as one item, so a highlight with two of its tags counts once
 * there; hidden items are left out. The caller must be able to read the project, which is what
 * makes its highlights readable to them.
 */
export const UNGROUPED_ITEM = 'ungrouped';

export interface ChartItem {
  id: string;
  kind: 'TAG' | 'TAG_GROUP' | 'UNGROUPED';
  title: string;
  color: string | null;
  value: number;
}

/** The SQL expression naming the item a tagging falls in, with its bindings. */
function itemKey(chart: ChartRow): { sql: string; bindings: string[] } {
  if (chart.group_by === 'TAG_GROUP') return { sql: `coalesce(t.group_id::text, '${UNGROUPED_ITEM}')`, bindings: [] };
  return {
    sql: `case when t.group_id::text in (select jsonb_array_elements_text(?::jsonb)) then t.group_id::text else t.id::text end`,
    bindings: [JSON.stringify(chart.collapsed_group_ids)],
  };
}

/** Taggings of the chart's project's live highlights, each with the item it falls in. */
function taggings(trx: Knex.Transaction, chart: ChartRow) {
  const key = itemKey(chart);
  return trx('highlight_tags as ht')
    .join('highlights as h', 'h.id', 'ht.highlight_id')
    .join('tags as t', 't.id', 'ht.tag_id')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where({ 'h.workspace_id': chart.workspace_id, 'h.project_id': chart.project_id })
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .select(
      trx.raw(`${key.sql} as item_id`, key.bindings),
      'h.id as highlight_id',
      'h.note_id',
      trx.raw('char_length(h.text) as length'),
    );
}

export async function chartItems(trx: Knex.Transaction, chart: ChartRow): Promise<ChartItem[]> {
  const metric = {
    HIGHLIGHT_COUNT: 'count(distinct highlight_id)',
    NOTE_COUNT: 'count(distinct note_id)',
    TEXT_VOLUME: 'coalesce(sum(length), 0)',
  }[chart.metric];
  // Distinct (item, highlight) pairs first, so text volume adds each highlight once per item.
  const pairs = trx
    .queryBuilder()
    .distinct('item_id', 'highlight_id', 'note_id', 'length')
    .from(taggings(trx, chart).as('x'));
  const rows = (await trx
    .select('item_id', trx.raw(`${metric}::bigint as value`))
    .from(pairs.as('p'))
    .groupBy('item_id')) as Array<{ item_id: string; value: string | number }>;
  const hidden = new Set(chart.hidden_item_ids);
  const visible = rows.filter((r) => !hidden.has(r.item_id));
  const ids = visible.map((r) => r.item_id).filter((id) => id !== UNGROUPED_ITEM);
  const tags = (await trx('tags')
    .where({ workspace_id: chart.workspace_id })
    .whereIn('id', ids)
    .select('id', 'title', 'color')) as Array<{ id: string; title: string; color: string }>;
  const groups = (await trx('tag_groups')
    .where({ workspace_id: chart.workspace_id })
    .whereIn('id', ids)
    .select('id', 'title', 'color')) as Array<{ id: string; title: string; color: string | null }>;
  const named = new Map<string, Omit<ChartItem, 'value'>>();
  for (const t of tags) named.set(t.id, { id: t.id, kind: 'TAG', title: t.title, color: t.color });
  for (const g of groups) named.set(g.id, { id: g.id, kind: 'TAG_GROUP', title: g.title, color: g.color });
  named.set(UNGROUPED_ITEM, { id: UNGROUPED_ITEM, kind: 'UNGROUPED', title: 'Ungrouped', color: null });
  return visible
    .flatMap((r) => {
      const item = named.get(r.item_id);
      return item ? [{ ...item, value: Number(r.value) }] : [];
    })
    .sort((a, b) => b.value - a.value || a.title.localeCompare(b.title));
}

export interface ChartHighlight {
  id: string;
  text: string;
  noteId: string | null;
  noteTitle: string | null;
  projectId: string;
  createdAt: Date;
}

const highlightsArgs = z.object({
  id: idSchema(),
  itemId: z
    .string()
    .trim()
    .min(1, 'itemId is a tag id, a tag group id or ungrouped.')
    .max(64, 'itemId is a tag id, a tag group id or ungrouped.'),
});

/** The highlights behind one item of a chart (clicking a bar), newest first. */
export async function chartHighlights(ctx: RequestContext, args: unknown): Promise<ChartHighlight[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { id, itemId } = validate(highlightsArgs, args);
  if (itemId !== UNGROUPED_ITEM && !z.uuid().safeParse(itemId).success)
    throw badInput('itemId', 'itemId is a tag id, a tag group id or ungrouped.');
  return ctx.tx(async (trx) => {
    const { chart } = await chartFor(trx, caller, id, 'read');
    const ids = trx.select('highlight_id').from(taggings(trx, chart).as('x')).where('item_id', itemId);
    const rows = (await trx('highlights as h')
      .leftJoin('notes as n', 'n.id', 'h.note_id')
      .whereIn('h.id', ids)
      .orderBy([{ column: 'h.created_at', order: 'desc' }, { column: 'h.id' }])
      .limit(CHART_LIMITS.highlightsPage)
      .select('h.id', 'h.text', 'h.note_id', 'n.title as note_title', 'h.project_id', 'h.created_at')) as Array<{
      id: string;
      text: string;
      note_id: string | null;
      note_title: string | null;
      project_id: string;
      created_at: Date;
    }>;
    return rows.map((r) => ({
      id: r.id,
      text: r.text,
      noteId: r.note_id,
      noteTitle: r.note_title,
      projectId: r.project_id,
      createdAt: r.created_at,
    }));
  });
}
