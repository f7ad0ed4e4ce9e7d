import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import type { Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { rethrowAs } from '../tags/access.ts';
import { fieldFor } from './access.ts';
import { insertOptions } from './fields.ts';
import { hexColor, optionInput, uuid } from './inputs.ts';
import { optionView, type FieldOptionRow, type FieldOptionView } from './rows.ts';
import { optionKey, optionLabelSchema } from './rules/select-options.ts';

const DUPLICATE = 'An option with this label already exists.';

const addArgs = z.object({ fieldId: uuid('fieldId'), input: optionInput });

/** Adds an option to a select field, within its 750 (000 §5). */
export async function addFieldOption(ctx: RequestContext, args: unknown): Promise<FieldOptionView> {
  const caller = callerOf(ctx, 'fields:update');
  const { fieldId, input } = validate(addArgs, args);
  return ctx.tx(async (trx) => {
    const field = await fieldFor(trx, caller, fieldId, 'write', { lock: true });
    if (field.type !== 'SELECT') throw badInput('fieldId', 'Only select fields have options.');
    const clash = await trx('field_options')
      .where({ field_id: field.id })
      .whereRaw('lower(label) = ?', [optionKey(input.label)])
      .first('id');
    if (clash) throw badInput('label', DUPLICATE);
    await insertOptions(trx, caller, field.id, [input]);
    const row = (await trx('field_options')
      .where({ field_id: field.id })
      .whereRaw('lower(label) = ?', [optionKey(input.label)])
      .first()) as FieldOptionRow;
    return optionView(row);
  });
}

const updateArgs = z.object({
  id: uuid('id'),
  input: z.object({
    label: optionLabelSchema.optional(),
    color: hexColor.optional(),
    displayLabel: optionLabelSchema.nullish(),
  }),
});

async function optionFor(trx: Knex.Transaction, caller: Caller, id: string): Promise<FieldOptionRow> {
  const option = (await trx('field_options').where({ id, workspace_id: caller.workspaceId }).first()) as
    | FieldOptionRow
    | undefined;
  if (!option) throw notFound('That option');
  await fieldFor(trx, caller, option.field_id, 'write', { lock: true }).catch(rethrowAs('That option'));
  return option;
}

export async function updateFieldOption(ctx: RequestContext, args: unknown): Promise<FieldOptionView> {
  const caller = callerOf(ctx, 'fields:update');
  const { id, input } = validate(updateArgs, args);
  return ctx.tx(async (trx) => {
    const option = await optionFor(trx, caller, id);
    if (input.label !== undefined) {
      const clash = await trx('field_options')
        .where({ field_id: option.field_id })
        .whereNot({ id })
        .whereRaw('lower(label) = ?', [optionKey(input.label)])
        .first('id');
      if (clash) throw badInput('label', DUPLICATE);
    }
    const patch: Record<string, unknown> = { updated_at: trx.fn.now() };
    if (input.label !== undefined) patch.label = input.label;
    if (input.color !== undefined) patch.color = input.color;
    if (input.displayLabel !== undefined) patch.display_label = input.displayLabel;
    const [row] = (await trx('field_options').where({ id }).update(patch).returning('*')) as FieldOptionRow[];
    return optionView(row!);
  });
}

/** Deletes an option and takes it out of every value that chose it (Manager+, 002 §6). */
export async function deleteFieldOption(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'fields:manage');
  const { id } = validate(z.object({ id: uuid('id') }), args);
  return ctx.tx(async (trx) => {
    const option = await optionFor(trx, caller, id);
    await trx('field_options').where({ id }).delete();
    await trx.raw(
      `update field_values set value = value - ?::text, updated_at = now() where field_id = ? and value @> jsonb_build_array(?::text)`,
      [id, option.field_id, id],
    );
    await trx('field_values').where({ field_id: option.field_id }).whereRaw(`value = '[]'::jsonb`).delete();
    return true;
  });
}
