import type { Knex } from 'knex';
import { badInput } from '@fieldbook/core';
import type { SearchAccess } from '../engine/engine.ts';
import { isCustomField, type CustomFieldRef } from '../filters/fields.ts';
import type { FilterForm } from '../filters/form.ts';
import { isUserSpecialValue, MULTISELECT_OPERAND_TYPES, type MultiselectOperandType } from '../filters/operands.ts';

/**
 * Where the objects a multiselect operand names live, and the project that decides who may read
 * them (null for workspace-wide objects such as people). A saved feed keeps its filter, so every
 * id in it must be one the caller can read in this workspace, as the feed's project ids are.
 */
interface IdSource {
  /** Rows of this workspace with the id, and their project (or null). */
  query(trx: Knex.Transaction, workspaceId: string, ids: readonly string[]): Knex.QueryBuilder;
  what: string;
}

const inProject = (table: string) => (trx: Knex.Transaction, workspaceId: string, ids: readonly string[]) =>
  trx(table).where({ workspace_id: workspaceId }).whereIn('id', ids).select('id', 'project_id');

const onBoard = (table: string) => (trx: Knex.Transaction, workspaceId: string, ids: readonly string[]) =>
  trx(`${table} as t`)
    .join('tag_boards as b', 'b.id', 't.board_id')
    .where('t.workspace_id', workspaceId)
    .whereIn('t.id', ids)
    .select('t.id', 'b.project_id');

const SOURCES: Readonly<Record<Exclude<MultiselectOperandType, 'channelMultiselect'>, IdSource>> = {
  highlightMultiselect: { query: inProject('highlights'), what: 'highlights' },
  noteMultiselect: { query: inProject('notes'), what: 'notes' },
  insightMultiselect: { query: inProject('insights'), what: 'insights' },
  projectMultiselect: {
    query: (trx, workspaceId, ids) =>
      trx('projects').where({ workspace_id: workspaceId }).whereIn('id', ids).select('id', 'id as project_id'),
    what: 'projects',
  },
  folderMultiselect: {
    query: (trx, workspaceId, ids) =>
      trx('project_categories')
        .where({ workspace_id: workspaceId })
        .whereIn('id', ids)
        .select('id', trx.raw('null as project_id')),
    what: 'folders',
  },
  personMultiselect: {
    query: (trx, workspaceId, ids) =>
      trx('people').where({ workspace_id: workspaceId }).whereIn('id', ids).select('id', trx.raw('null as project_id')),
    what: 'people',
  },
  tagMultiselect: { query: onBoard('tags'), what: 'tags' },
  tagGroupMultiselect: { query: onBoard('tag_groups'), what: 'tag groups' },
  tagBoardMultiselect: { query: inProject('tag_boards'), what: 'tag boards' },
  userMultiselect: {
    query: (trx, workspaceId, ids) =>
      trx('workspace_members')
        .where({ workspace_id: workspaceId })
        .whereIn('user_id', ids)
        .select('user_id as id', trx.raw('null as project_id')),
    what: 'members',
  },
  optionMultiselect: {
    query: (trx, workspaceId, ids) =>
      trx('field_options as o')
        .join('fields as f', 'f.id', 'o.field_id')
        .where('f.workspace_id', workspaceId)
        .whereIn('o.id', ids)
        .select('o.id', 'f.project_id'),
    what: 'options',
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const readableProject = (access: SearchAccess, projectId: string | null) =>
  projectId === null || access.allProjects || access.projectIds.includes(projectId);

/**
 * Refuses a filter that names an object the caller cannot read in this workspace: custom fields,
 * and every id in its multiselect values. Channel ids are kept as they are until channels exist.
 */
export async function assertFilterIdsReadable(
  trx: Knex.Transaction,
  workspaceId: string,
  access: SearchAccess,
  filter: FilterForm | null,
): Promise<void> {
  if (!filter) return;
  const wanted = new Map<MultiselectOperandType, Set<string>>();
  const customFields = new Map<string, CustomFieldRef>();
  for (const form of filter.forms) {
    if (isCustomField(form.field)) customFields.set(form.field.id.toLowerCase(), form.field);
    for (const values of Object.values(form.values)) {
      for (const type of MULTISELECT_OPERAND_TYPES) {
        for (const id of values?.[type] ?? []) {
          if (type === 'userMultiselect' && isUserSpecialValue(id)) continue;
          if (!UUID.test(id)) throw badInput('input.filter', `The filter's ${type} values must be ids.`);
          const set = wanted.get(type) ?? new Set<string>();
          set.add(id.toLowerCase());
          wanted.set(type, set);
        }
      }
    }
  }
  if (customFields.size) {
    const ids = [...customFields.keys()];
    const rows = (await trx('fields')
      .where({ workspace_id: workspaceId })
      .whereIn('id', ids)
      .select('id', 'project_id')) as Array<{ id: string; project_id: string | null }>;
    const readable = new Set(rows.filter((r) => readableProject(access, r.project_id)).map((r) => r.id));
    if (!ids.every((id) => readable.has(id)))
      throw badInput('input.filter', 'The filter names a field that is not one of this workspace you can read.');
  }
  for (const [type, set] of wanted) {
    if (type === 'channelMultiselect') continue;
    const source = SOURCES[type];
    const ids = [...set];
    const rows = (await source.query(trx, workspaceId, ids)) as Array<{ id: string; project_id: string | null }>;
    const readable = new Set(
      rows.filter((r) => readableProject(access, r.project_id)).map((r) => String(r.id).toLowerCase()),
    );
    if (!ids.every((id) => readable.has(id))) {
      throw badInput(
        'input.filter',
        `The filter names ${source.what} that are not ones of this workspace you can read.`,
      );
    }
  }
}
