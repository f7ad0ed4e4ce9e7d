import type { Knex } from 'knex';
import { plainText, type RichTextNode } from '../notes/rich-text.ts';
import type { ViewObjectType } from './settings.ts';

/**
 * What a view's columns show beside an item's own row (002 §2): its tags, field values, the
 * insights citing a note's highlights, highlight counts and summaries. Each is read for a whole
 * page of rows in one query, so a page costs the same few queries whatever its size.
 */
export interface ViewRowTag {
  id: string;
  title: string;
  color: string;
}

export interface RowDetails {
  tags: Map<string, ViewRowTag[]>;
  values: Map<string, Array<{ fieldId: string; value: unknown }>>;
  insights: Map<string, Array<{ id: string; title: string }>>;
  highlightCounts: Map<string, number>;
  summaries: Map<string, string>;
}

/** Characters of a summary a row carries: enough for a wrapped cell or a card. */
export const SUMMARY_PREVIEW = 400;

const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** A summary's text on its own lines, cut to SUMMARY_PREVIEW characters. */
export function summaryPreview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_PREVIEW ? flat : `${flat.slice(0, SUMMARY_PREVIEW - 1).trimEnd()}…`;
}

/**
 * Tags: a note's own tags, a highlight's tags, and for an insight the tags of the highlights it
 * cites (as search reads an insight's tags).
 */
async function tagsOf(trx: Knex.Transaction, type: ViewObjectType, ids: string[]): Promise<Map<string, ViewRowTag[]>> {
  const tags = new Map<string, ViewRowTag[]>();
  const query =
    type === 'INSIGHT'
      ? trx('highlights as h')
          .join('highlight_tags as l', 'l.highlight_id', 'h.id')
          .join('tags as g', 'g.id', 'l.tag_id')
          .whereIn('h.insight_id', ids)
          .whereNull('h.deleted_at')
          .distinct('h.insight_id as object_id', 'g.id', 'g.title', 'g.color')
      : trx(`${type === 'HIGHLIGHT' ? 'highlight_tags' : 'note_tags'} as l`)
          .join('tags as g', 'g.id', 'l.tag_id')
          .whereIn(`l.${type === 'HIGHLIGHT' ? 'highlight_id' : 'note_id'}`, ids)
          .select(
            'l.' + (type === 'HIGHLIGHT' ? 'highlight_id' : 'note_id') + ' as object_id',
            'g.id',
            'g.title',
            'g.color',
          );
  const rows = (await query.orderBy([{ column: 'g.title' }, { column: 'g.id' }])) as Array<
    ViewRowTag & { object_id: string }
  >;
  for (const t of rows) push(tags, t.object_id, { id: t.id, title: t.title, color: t.color });
  return tags;
}

export async function rowDetails(
  trx: Knex.Transaction,
  workspaceId: string,
  type: ViewObjectType,
  rows: Array<{ id: string; summary?: unknown }>,
): Promise<RowDetails> {
  const ids = rows.map((r) => r.id);
  const details: RowDetails = {
    tags: new Map(),
    values: new Map(),
    insights: new Map(),
    highlightCounts: new Map(),
    summaries: new Map(),
  };
  if (!ids.length) return details;
  details.tags = await tagsOf(trx, type, ids);
  if (type === 'HIGHLIGHT') return details;

  const values = (await trx('field_values')
    .where({ workspace_id: workspaceId, object_type: type })
    .whereIn('object_id', ids)
    .select('object_id', 'field_id', 'value')) as Array<{
    object_id: string;
    field_id: string;
    value: unknown;
  }>;
  for (const v of values) push(details.values, v.object_id, { fieldId: v.field_id, value: v.value });

  // A note's highlights; an insight's cited highlights. Highlights of a note in the trash go with it.
  const column = type === 'NOTE' ? 'note_id' : 'insight_id';
  const counts = (await trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .whereIn(`h.${column}`, ids)
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .groupBy(`h.${column}`)
    .select(`h.${column} as object_id`)
    .count('* as n')) as Array<{ object_id: string; n: string | number }>;
  for (const c of counts) details.highlightCounts.set(c.object_id, Number(c.n));

  if (type === 'NOTE') {
    // The insights that cite this note's highlights as their evidence.
    const cited = (await trx('highlights as h')
      .join('insights as i', 'i.id', 'h.insight_id')
      .whereIn('h.note_id', ids)
      .whereNull('h.deleted_at')
      .whereNull('i.deleted_at')
      .distinct('h.note_id as object_id', 'i.id', 'i.title')
      .orderBy([{ column: 'i.title' }, { column: 'i.id' }])) as Array<{ object_id: string; id: string; title: string }>;
    for (const c of cited) push(details.insights, c.object_id, { id: c.id, title: c.title || 'Untitled insight' });
  }

  // An insight's written summary first; otherwise the AI summary kept for the item.
  for (const r of rows) {
    const text = r.summary ? plainText(r.summary as RichTextNode).trim() : '';
    if (text) details.summaries.set(r.id, summaryPreview(text));
  }
  const missing = ids.filter((id) => !details.summaries.has(id));
  if (missing.length) {
    const ai = (await trx('ai_summaries')
      .where({ workspace_id: workspaceId, object_type: type })
      .whereIn('object_id', missing)
      .select('object_id', 'content')) as Array<{
      object_id: string;
      content: { text?: string; sections?: Array<{ title?: string; text?: string }> };
    }>;
    for (const s of ai) {
      const text =
        s.content.text?.trim() ||
        (s.content.sections ?? [])
          .map((x) => x.text ?? '')
          .join(' ')
          .trim();
      if (text) details.summaries.set(s.object_id, summaryPreview(text));
    }
  }
  return details;
}
