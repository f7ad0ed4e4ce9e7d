import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type Permission, type RequestContext } from '@fieldbook/core';
import { rethrowAs } from '../tags/access.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { personFor } from '../people/people.ts';
import { fieldFor } from './access.ts';
import { insertOptions } from './fields.ts';
import { uuid, valueObjectType } from './inputs.ts';
import { valueView, type FieldOptionRow, type FieldRow, type FieldValueRow, type FieldValueView } from './rows.ts';
import { FIELD_SETS_FOR, type ValueObjectType } from './rules/field-types.ts';
import {
  assertSelectable,
  maxSelectable,
  normalizeOptionIds,
  optionKey,
  parseSelectValue,
} from './rules/select-options.ts';
import { isBlankValue, validateFieldValue, type RawFieldValue, type StoredFieldValue } from './rules/values.ts';

const OBJECTS: Readonly<Record<ValueObjectType, { table: string; name: string; read: Permission; write: Permission }>> =
  {
    NOTE: { table: 'notes', name: 'note', read: 'notes:read', write: 'notes:update' },
    INSIGHT: { table: 'insights', name: 'insight', read: 'insights:read', write: 'insights:update' },
    PERSON: { table: 'people', name: 'person', read: 'people:read', write: 'peopleFields:update' },
  };

interface ObjectRef {
  id: string;
  projectId: string | null;
}

/**
 * The object values belong to, reachable by the caller; NOT_FOUND otherwise. A note, insight or
 * person in the trash is not found: its values are kept for a restore but cannot be changed.
 */
async function objectFor(
  trx: Knex.Transaction,
  caller: Caller,
  type: ValueObjectType,
  id: string,
  write: boolean,
): Promise<ObjectRef> {
  const { table, name } = OBJECTS[type];
  const what = `That ${name}`;
  if (type === 'PERSON') {
    await personFor(trx, caller, id);
    return { id, projectId: null };
  }
  const row = (await trx(table)
    .where({ id, workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .first('id', 'project_id')) as { id: string; project_id: string } | undefined;
  if (!row) throw notFound(what);
  await projectFor(trx, caller, row.project_id, write ? 'write' : 'read').catch(rethrowAs(what));
  return { id: row.id, projectId: row.project_id };
}

const listArgs = z.object({ objectType: valueObjectType, objectId: uuid('objectId') });

/** The field values of one note, insight or person, in field order. */
export async function listFieldValues(ctx: RequestContext, args: unknown): Promise<FieldValueView[]> {
  const input = validate(listArgs, args);
  const caller = callerOf(ctx, OBJECTS[input.objectType].read);
  return ctx.tx(async (trx) => {
    const object = await objectFor(trx, caller, input.objectType, input.objectId, false);
    const rows = (await trx('field_values as v')
      .join('fields as f', 'f.id', 'v.field_id')
      .where({ 'v.object_type': input.objectType, 'v.object_id': object.id })
      .orderBy([{ column: 'f.rank' }, { column: 'f.created_at' }])
      .select('v.*')) as FieldValueRow[];
    return rows.map(valueView);
  });
}

const setArgs = z.object({
  objectType: valueObjectType,
  objectId: uuid('objectId'),
  fieldId: uuid('fieldId'),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).nullish(),
  optionIds: z.array(z.string()).nullish(),
});

/** A select value: chosen option ids, creating options for labels the field lacks (000 §5). */
async function selectValue(
  trx: Knex.Transaction,
  caller: Caller,
  field: FieldRow,
  value: RawFieldValue,
  optionIds: readonly string[] | null | undefined,
): Promise<string[]> {
  const options = async () =>
    (await trx('field_options').where({ field_id: field.id }).orderBy('rank')) as FieldOptionRow[];
  const before = await options();
  // The field's max is read from the field as the value finds it, before any option it creates.
  const max = maxSelectable(field.config.maxSelectable, before.length);
  let ids: string[];
  if (optionIds) {
    const own = new Set(before.map((o) => o.id));
    ids = normalizeOptionIds(optionIds).filter((id) => own.has(id));
  } else {
    const text = Array.isArray(value) ? value.join(',') : value;
    if (typeof text !== 'string') throw badInput('value', 'A select value is a comma-separated list of options.');
    const parsed = parseSelectValue(text, before);
    assertSelectable(parsed.labels.length, max);
    await insertOptions(trx, caller, field.id, parsed.newOptions);
    const byKey = new Map((await options()).map((o) => [optionKey(o.label), o.id]));
    ids = parsed.labels.map((label) => byKey.get(optionKey(label))!);
  }
  assertSelectable(ids.length, max);
  return ids;
}

async function personValue(trx: Knex.Transaction, caller: Caller, value: RawFieldValue): Promise<string[]> {
  const ids = validateFieldValue('PERSON', value) as string[];
  const members = (await trx('workspace_members')
    .where({ workspace_id: caller.workspaceId })
    .whereIn('user_id', ids)
    .select('user_id')) as Array<{ user_id: string }>;
  if (members.length !== ids.length) throw badInput('value', 'A person field takes members of this workspace.');
  return ids;
}

/**
 * Sets (or, with a blank value, clears) one field's value on a note, insight or person. The
 * field must be in a field set of that object: the object's own type or workspace fields, and
 * a project field only on that project's objects.
 */
export async function setFieldValue(ctx: RequestContext, args: unknown): Promise<FieldValueView | null> {
  const input = validate(setArgs, args);
  const caller = callerOf(ctx, OBJECTS[input.objectType].write);
  return ctx.tx(async (trx) => {
    const object = await objectFor(trx, caller, input.objectType, input.objectId, true);
    const field = await fieldFor(trx, caller, input.fieldId, 'read', { lock: true });
    const fits =
      FIELD_SETS_FOR[input.objectType].includes(field.object_type) &&
      (field.project_id === null || field.project_id === object.projectId);
    if (!fits) throw badInput('fieldId', `That field does not apply to this ${OBJECTS[input.objectType].name}.`);
    const key = { field_id: field.id, object_type: input.objectType, object_id: object.id };
    const raw = input.value as RawFieldValue;
    let stored: StoredFieldValue | null;
    if (field.type === 'SELECT')
      stored =
        isBlankValue(raw) && !input.optionIds?.length
          ? null
          : await selectValue(trx, caller, field, raw, input.optionIds);
    else if (isBlankValue(raw)) stored = null;
    else if (field.type === 'PERSON') stored = await personValue(trx, caller, raw);
    else stored = validateFieldValue(field.type, raw);
    if (stored === null || (Array.isArray(stored) && stored.length === 0)) {
      await trx('field_values').where(key).delete();
      return null;
    }
    const [row] = (await trx('field_values')
      .insert({ ...key, workspace_id: caller.workspaceId, value: JSON.stringify(stored), updated_by: caller.userId })
      .onConflict(['field_id', 'object_type', 'object_id'])
      .merge({ value: JSON.stringify(stored), updated_by: caller.userId, updated_at: trx.fn.now() })
      .returning('*')) as FieldValueRow[];
    return valueView(row!);
  });
}
