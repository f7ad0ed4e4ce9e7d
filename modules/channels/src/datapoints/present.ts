import type { Knex } from 'knex';
import { npsBand, type FieldType } from '../fields/types.ts';
import type { DataPointRow } from './read.ts';

export interface FieldView {
  id: string;
  label: string;
  type: FieldType;
  options: Array<{ id: string; label: string }>;
}

export interface DataPointView extends DataPointRow {
  fieldValues: Array<{ field: FieldView; value: string | boolean; npsBand: string | null }>;
  personRef: { id: string; name: string; email: string | null } | null;
}

/** Data points with their fields and person, read in two queries whatever the page size. */
export async function presentDataPoints(
  trx: Knex.Transaction,
  workspaceId: string,
  rows: readonly DataPointRow[],
): Promise<DataPointView[]> {
  const channelIds = [...new Set(rows.map((r) => r.channel_id))];
  const personIds = [...new Set(rows.map((r) => r.person_id).filter((id): id is string => !!id))];
  const fields = channelIds.length
    ? ((await trx('channel_fields')
        .where({ workspace_id: workspaceId })
        .whereIn('channel_id', channelIds)
        .select('id', 'label', 'type', 'options')) as FieldView[])
    : [];
  const byId = new Map(fields.map((f) => [f.id, f]));
  const people = personIds.length
    ? ((await trx('people')
        .where({ workspace_id: workspaceId })
        .whereIn('id', personIds)
        .whereNull('deleted_at')
        .select('id', 'name', 'email')) as Array<{ id: string; name: string; email: string | null }>)
    : [];
  const personById = new Map(people.map((p) => [p.id, p]));
  return rows.map((row) => ({
    ...row,
    personRef: row.person_id ? (personById.get(row.person_id) ?? null) : null,
    fieldValues: Object.entries(row.fields ?? {}).flatMap(([id, value]) => {
      const field = byId.get(id);
      if (!field) return [];
      return [
        { field, value, npsBand: field.type === 'NPS' && typeof value === 'string' ? npsBand(Number(value)) : null },
      ];
    }),
  }));
}
