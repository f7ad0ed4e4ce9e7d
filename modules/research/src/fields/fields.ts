import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, validate, type RequestContext } from '@fieldbook/core';
import { colorFromLabel } from '../colors/colors.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { RANK_GAP } from '../ranks/ranks.ts';
import { rankForNewItem } from '../ranks/reorder.ts';
import { fieldFor } from './access.ts';
import { createFieldInput, updateFieldInput, uuid } from './inputs.ts';
import { fieldView, type FieldConfig, type FieldRow, type FieldView } from './rows.ts';
import { FIELD_OBJECT_TYPES, type FieldObjectType, type FieldType } from './rules/field-types.ts';
import { assertOptionCount, optionKey, splitImportedOptions } from './rules/select-options.ts';

const WORKSPACE_WIDE: readonly FieldObjectType[] = ['WORKSPACE', 'PERSON'];
const isNumeric = (type: FieldType) => type === 'NUMBER' || type === 'ARR';

const setArgs = z.object({ objectType: z.enum(FIELD_OBJECT_TYPES), projectId: uuid('projectId').nullish() });

/**
 * A field set (000 §3): the fields of one object type, either the workspace's own (no project)
 * or one project's (the /projects/{id}/settings/note-fields and insight-fields screens).
 */
export async function listFieldSet(ctx: RequestContext, args: unknown): Promise<FieldView[]> {
  const caller = callerOf(ctx, 'fields:read');
  const { objectType, projectId } = validate(setArgs, args);
  return ctx.tx(async (trx) => {
    if (projectId) await projectFor(trx, caller, projectId, 'read');
    const q = trx('fields').where({ workspace_id: caller.workspaceId, object_type: objectType });
    if (projectId) q.where('project_id', projectId);
    else q.whereNull('project_id');
    return ((await q.orderBy(['rank', 'created_at', 'id'])) as FieldRow[]).map(fieldView);
  });
}

export async function getField(ctx: RequestContext, args: unknown): Promise<FieldView> {
  const caller = callerOf(ctx, 'fields:read');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => fieldView(await fieldFor(trx, caller, id, 'read')));
}

function configFor(
  type: FieldType,
  input: { numberConfig?: FieldConfig['number'] | null; maxSelectable?: number | null },
  base: FieldConfig = {},
): FieldConfig {
  const config: FieldConfig = { ...base };
  if (input.numberConfig != null) {
    if (!isNumeric(type)) throw badInput('numberConfig', 'Only number and ARR fields have a number format.');
    config.number = input.numberConfig;
  }
  if (input.maxSelectable !== undefined) {
    if (input.maxSelectable !== null && type !== 'SELECT')
      throw badInput('maxSelectable', 'Only select fields have a max selectable.');
    if (input.maxSelectable === null) delete config.maxSelectable;
    else config.maxSelectable = input.maxSelectable;
  }
  return config;
}

/** Inserts options after the field's last, skipping labels it already has (case-insensitively). */
export async function insertOptions(
  trx: Knex.Transaction,
  caller: Caller,
  fieldId: string,
  options: ReadonlyArray<{ label: string; color?: string | null; displayLabel?: string | null }>,
): Promise<void> {
  const existing = (await trx('field_options').where({ field_id: fieldId }).select('label')) as Array<{
    label: string;
  }>;
  const seen = new Set(existing.map((o) => optionKey(o.label)));
  const fresh = options.filter((o) => !seen.has(optionKey(o.label)) && seen.add(optionKey(o.label)));
  if (!fresh.length) return;
  assertOptionCount(existing.length + fresh.length);
  const first = await rankForNewItem(trx, { table: 'field_options', scope: { field_id: fieldId } });
  const rows = fresh.map((o, i) => ({
    workspace_id: caller.workspaceId,
    field_id: fieldId,
    label: o.label,
    display_label: o.displayLabel ?? null,
    color: o.color ?? colorFromLabel(o.label),
    rank: first + i * RANK_GAP,
  }));
  await trx('field_options').insert(rows);
}

/** Creates a field in a field set; a select field may come with options, typed or imported. */
export async function createField(ctx: RequestContext, args: { input?: unknown }): Promise<FieldView> {
  const caller = callerOf(ctx, 'fields:create');
  const input = validate(createFieldInput, args.input);
  if (input.projectId && WORKSPACE_WIDE.includes(input.objectType)) {
    throw badInput('projectId', 'Workspace and person fields belong to the whole workspace, not to a project.');
  }
  const options = [
    ...(input.options ?? []),
    ...splitImportedOptions(input.importedOptions ?? '').map((label) => ({ label, color: null, displayLabel: null })),
  ];
  if (options.length && input.type !== 'SELECT') throw badInput('options', 'Only select fields have options.');
  const config = configFor(input.type, input);
  if (isNumeric(input.type) && !config.number) config.number = { format: 'number' };
  return ctx.tx(async (trx) => {
    if (input.projectId) await projectFor(trx, caller, input.projectId, 'write');
    const rank = await rankForNewItem(trx, {
      table: 'fields',
      scope: { workspace_id: caller.workspaceId, object_type: input.objectType, project_id: input.projectId ?? null },
    });
    const [row] = (await trx('fields')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: input.projectId ?? null,
        object_type: input.objectType,
        type: input.type,
        label: input.label,
        config: JSON.stringify(config),
        rank,
        created_by: caller.userId,
      })
      .returning('*')) as FieldRow[];
    await insertOptions(trx, caller, row!.id, options);
    return fieldView(row!);
  });
}

/** Relabels a field or changes its number format or max selectable; its type stays. */
export async function updateField(ctx: RequestContext, args: { input?: unknown }): Promise<FieldView> {
  const caller = callerOf(ctx, 'fields:update');
  const input = validate(updateFieldInput, args.input);
  return ctx.tx(async (trx) => {
    const field = await fieldFor(trx, caller, input.id, 'write');
    const patch: Record<string, unknown> = {
      updated_at: trx.fn.now(),
      config: JSON.stringify(configFor(field.type, input, field.config)),
    };
    if (input.label !== undefined) patch.label = input.label;
    const [row] = (await trx('fields').where({ id: field.id }).update(patch).returning('*')) as FieldRow[];
    return fieldView(row!);
  });
}

/** Deletes a field with its options and every value of it (Manager+, 002 §6). */
export async function deleteField(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'fields:manage');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => {
    await fieldFor(trx, caller, id, 'write');
    await trx('fields').where({ id }).delete();
    return true;
  });
}
