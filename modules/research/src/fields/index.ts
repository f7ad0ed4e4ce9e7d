import type { ModuleGraphql, RequestContext } from '@fieldbook/core';
import { createField, deleteField, getField, listFieldSet, updateField } from './fields.ts';
import { fieldLoaders } from './loaders.ts';
import { addFieldOption, deleteFieldOption, updateFieldOption } from './options.ts';
import type { FieldValueView, FieldView } from './rows.ts';
import { maxSelectable } from './rules/select-options.ts';
import { fieldsTypeDefs } from './schema.ts';
import { listFieldValues, setFieldValue } from './values.ts';

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

/** Custom fields, select options and field values: the research module's fields part. */
export function fieldsPart(): ModuleGraphql {
  const Query: Record<string, Resolver> = {
    fieldSet: (_p, args, ctx) => listFieldSet(ctx, args),
    field: (_p, args, ctx) => getField(ctx, args),
    fieldValues: (_p, args, ctx) => listFieldValues(ctx, args),
  };
  const Mutation: Record<string, Resolver> = {
    createField: (_p, args, ctx) => createField(ctx, args),
    updateField: (_p, args, ctx) => updateField(ctx, args),
    deleteField: (_p, args, ctx) => deleteField(ctx, args),
    addFieldOption: (_p, args, ctx) => addFieldOption(ctx, args),
    updateFieldOption: (_p, args, ctx) => updateFieldOption(ctx, args),
    deleteFieldOption: (_p, args, ctx) => deleteFieldOption(ctx, args),
    setFieldValue: (_p, args, ctx) => setFieldValue(ctx, args),
  };
  const Field: Record<string, Resolver<FieldView>> = {
    options: (field, _a, ctx) => (field.type === 'SELECT' ? fieldLoaders(ctx).optionsOfField.load(field.id) : []),
    maxSelectable: async (field, _a, ctx) =>
      field.type === 'SELECT'
        ? maxSelectable(field.configuredMaxSelectable, (await fieldLoaders(ctx).optionsOfField.load(field.id)).length)
        : null,
  };
  const FieldValue: Record<string, Resolver<FieldValueView>> = {
    field: (value, _a, ctx) => fieldLoaders(ctx).field.load(value.fieldId),
    options: async (value, _a, ctx) => {
      if (!Array.isArray(value.value)) return [];
      const field = await fieldLoaders(ctx).field.load(value.fieldId);
      if (field?.type !== 'SELECT') return [];
      const byId = new Map((await fieldLoaders(ctx).optionsOfField.load(value.fieldId)).map((o) => [o.id, o]));
      return (value.value as string[]).flatMap((id) => byId.get(id) ?? []);
    },
  };
  return { typeDefs: fieldsTypeDefs, resolvers: { Query, Mutation, Field, FieldValue } };
}
