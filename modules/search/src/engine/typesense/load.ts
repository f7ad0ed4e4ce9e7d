import type { Knex } from 'knex';
import type { Scalar, SearchResultType } from '../../filters/index.ts';
import type { SearchDocument } from '../engine.ts';
import { sourceFor } from '../postgres/sources.ts';

/**
 * Reads search documents from the research tables, with the same attribute definitions the
 * PostgreSQL engine filters with (postgres/sources.ts), so both engines agree on what an item
 * holds. Only live items are read: trashed items, and items of a trashed project, are absent.
 * Runs inside the caller's workspace transaction.
 */
export interface LoadOptions {
  /** Keyset paging: items with a greater id. */
  afterId?: string;
  /** Only these items. */
  ids?: readonly string[];
  /** Only the items of this project (the project itself for PROJECT). */
  projectId?: string;
  limit: number;
}

type Row = Record<string, unknown> & {
  id: string;
  title: string | null;
  content: string | null;
  project_id: string | null;
  project_title: string | null;
  created_at: Date;
  updated_at: Date;
};

const CUSTOM_OBJECT_TYPES: Partial<Record<SearchResultType, string>> = {
  NOTE: 'NOTE',
  INSIGHT: 'INSIGHT',
  PERSON: 'PERSON',
};

/** Whether a result type has anything to read (channels and themes have no tables yet). */
export const hasSource = (type: SearchResultType): boolean => sourceFor(type) !== undefined;

const jsonIds = (ids: readonly string[]): string => JSON.stringify(ids);

export async function loadDocuments(
  trx: Knex.Transaction,
  workspaceId: string,
  type: SearchResultType,
  options: LoadOptions,
): Promise<SearchDocument[]> {
  const source = sourceFor(type);
  if (!source) return [];
  const names = Object.keys(source.attributes);
  const columns = names.map((name, i) => `${source.attributes[name]!.sql} as "a${i}"`);
  const where = ['t.workspace_id = ?::uuid', source.live];
  const bindings: Array<string | number> = [workspaceId];
  if (options.afterId !== undefined) {
    where.push('t.id > ?::uuid');
    bindings.push(options.afterId);
  }
  if (options.projectId !== undefined) {
    where.push(`(${source.projectId}) = ?::uuid`);
    bindings.push(options.projectId);
  }
  if (options.ids !== undefined) {
    where.push('t.id = any(array(select jsonb_array_elements_text(?::jsonb))::uuid[])');
    bindings.push(jsonIds(options.ids));
  }
  bindings.push(options.limit);
  const statement = `select t.id::text as id, ${source.title} as title, ${source.content ?? `''`} as content,
      (${source.projectId})::text as project_id, p.title as project_title, t.created_at, t.updated_at, ${columns.join(', ')}
    from ${source.from} where ${where.join(' and ')} order by t.id limit ?::int`;
  const rows = ((await trx.raw(statement, bindings)) as { rows: Row[] }).rows;
  const custom = await customValues(
    trx,
    type,
    rows.map((r) => r.id),
  );

  return rows.map((row) => {
    const attributes: Record<string, Scalar | string[] | null> = {};
    names.forEach((name, i) => {
      const value = attributeValue(row[`a${i}`]);
      // count(*) and numeric arrive as strings.
      attributes[name] =
        source.attributes[name]!.kind === 'number' && typeof value === 'string' ? Number(value) : value;
    });
    for (const [fieldId, value] of custom.get(row.id) ?? []) attributes[`field.${fieldId}`] = value;
    return {
      type,
      id: row.id,
      workspaceId,
      projectId: row.project_id,
      projectTitle: row.project_title,
      title: row.title ?? '',
      content: row.content ?? '',
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      attributes,
    };
  });
}

/** Counts the live items of a type, for reindex progress. */
export async function countDocuments(
  trx: Knex.Transaction,
  workspaceId: string,
  type: SearchResultType,
): Promise<number> {
  const source = sourceFor(type);
  if (!source) return 0;
  const result = (await trx.raw(
    `select count(*)::int as count from ${source.from} where t.workspace_id = ?::uuid and ${source.live}`,
    [workspaceId],
  )) as {
    rows: Array<{ count: number }>;
  };
  return result.rows[0]?.count ?? 0;
}

function attributeValue(value: unknown): Scalar | string[] | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  return String(value);
}

async function customValues(
  trx: Knex.Transaction,
  type: SearchResultType,
  ids: readonly string[],
): Promise<Map<string, Array<[string, Scalar | string[] | null]>>> {
  const objectType = CUSTOM_OBJECT_TYPES[type];
  const out = new Map<string, Array<[string, Scalar | string[] | null]>>();
  if (!objectType || ids.length === 0) return out;
  const result = (await trx.raw(
    `select field_id::text as field_id, object_id::text as object_id, value from field_values
      where object_type = ? and object_id = any(array(select jsonb_array_elements_text(?::jsonb))::uuid[])`,
    [objectType, jsonIds(ids)],
  )) as { rows: Array<{ field_id: string; object_id: string; value: unknown }> };
  for (const row of result.rows) {
    const list = out.get(row.object_id) ?? [];
    list.push([row.field_id, jsonValue(row.value)]);
    out.set(row.object_id, list);
  }
  return out;
}

function jsonValue(value: unknown): Scalar | string[] | null {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}
