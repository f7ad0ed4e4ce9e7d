import { z } from 'zod';
import { FIELD_LIMITS } from './field-types.ts';

/** A field label: trimmed, 1..250 characters (000 §9). */
export const fieldLabelSchema = z
  .string({ error: 'Give the field a label.' })
  .trim()
  .min(1, 'Give the field a label.')
  .max(FIELD_LIMITS.label, `A field label can be at most ${FIELD_LIMITS.label} characters long.`);
