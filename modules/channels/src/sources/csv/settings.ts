import { z } from 'zod';
import { FIELD_TYPES } from '../../fields/types.ts';

const label = (key: string) =>
  z
    .string({ error: `${key} must be a column label.` })
    .trim()
    .min(1, `${key} must name a column.`)
    .max(250, `${key} can be at most 250 characters long.`);
const isoDate = (key: string) =>
  z
    .string()
    .trim()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
      `${key} must be a date in ISO 8601 form, such as 2026-03-01.`,
    );

/**
 * The CSV payload (001 §3.4: minDate, maxDate, analyzeColumnLabel, timestampColumnLabel,
 * unselectedHeaders, emailFieldPath), plus what the column mapping adds: each other column's field
 * type, a column of external ids, and whether NUL characters are dropped instead of refused.
 */
export const csvSettingsSchema = z.object({
  analyzeColumnLabel: label('analyzeColumnLabel'),
  timestampColumnLabel: label('timestampColumnLabel').nullish(),
  emailFieldPath: label('emailFieldPath').nullish(),
  externalIdColumnLabel: label('externalIdColumnLabel').nullish(),
  unselectedHeaders: z
    .array(z.string().max(250))
    .max(1000, 'unselectedHeaders can name at most 1000 columns.')
    .default([]),
  minDate: isoDate('minDate').nullish(),
  maxDate: isoDate('maxDate').nullish(),
  fieldTypes: z
    .record(
      z.string().max(250),
      z.enum(FIELD_TYPES, { error: `A field type must be one of ${FIELD_TYPES.join(', ')}.` }),
    )
    .default({}),
  ignoreNul: z.boolean().default(false),
});

export type CsvSettings = z.infer<typeof csvSettingsSchema>;
