import { z } from 'zod';
import { hexColorSchema } from '../colors/color-schema.ts';
import { uuid } from '../tags/inputs.ts';
import { FIELD_LIMITS, FIELD_OBJECT_TYPES, FIELD_TYPES, VALUE_OBJECT_TYPES } from './rules/field-types.ts';
import { fieldLabelSchema } from './rules/label.ts';
import { numberConfigSchema } from './rules/number-config.ts';
import { optionLabelSchema } from './rules/select-options.ts';

export { uuid };
export const hexColor = hexColorSchema;

export const maxSelectableSchema = z
  .number()
  .int('Max selectable is a whole number.')
  .min(1, 'Max selectable is at least 1.')
  .max(FIELD_LIMITS.options, `Max selectable is at most ${FIELD_LIMITS.options}.`);

export const optionInput = z.object({
  label: optionLabelSchema,
  color: hexColor.nullish(),
  displayLabel: optionLabelSchema.nullish(),
});

export const createFieldInput = z.object({
  objectType: z.enum(FIELD_OBJECT_TYPES),
  projectId: uuid('projectId').nullish(),
  type: z.enum(FIELD_TYPES),
  label: fieldLabelSchema,
  numberConfig: numberConfigSchema.nullish(),
  maxSelectable: maxSelectableSchema.nullish(),
  options: z.array(optionInput).nullish(),
  /** Options as imports carry them: one text, separated by semicolons. */
  importedOptions: z.string().nullish(),
});

export const updateFieldInput = z.object({
  id: uuid('id'),
  label: fieldLabelSchema.optional(),
  numberConfig: numberConfigSchema.nullish(),
  maxSelectable: maxSelectableSchema.nullish(),
});

export const valueObjectType = z.enum(VALUE_OBJECT_TYPES);
