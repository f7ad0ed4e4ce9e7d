import { z } from 'zod';
import { FIELD_LIMITS } from './field-types.ts';

/** How a number field displays its values (000 §3). */
export const NUMBER_FORMATS = ['number', 'number_with_commas', 'percent', 'currency'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

export interface NumberConfig {
  format: NumberFormat;
  currencySymbol?: string;
}

/** A number field's config: a format and, optionally, the currency symbol to show. */
export const numberConfigSchema = z.object({
  format: z
    .enum(NUMBER_FORMATS, { error: `A number format is one of ${NUMBER_FORMATS.join(', ')}.` })
    .default('number'),
  currencySymbol: z
    .string()
    .trim()
    .min(1, 'A currency symbol cannot be blank.')
    .max(
      FIELD_LIMITS.currencySymbol,
      `A currency symbol can be at most ${FIELD_LIMITS.currencySymbol} characters long.`,
    )
    .optional(),
});
