import { z } from 'zod';
import { normalizeHexColor } from './colors.ts';

/** A hex colour input, stored in canonical six-digit form (000 §5). */
export const hexColorSchema = z.string().transform((value, ctx) => {
  const color = normalizeHexColor(value);
  if (!color) {
    ctx.addIssue({ code: 'custom', message: 'A colour is a hex colour such as #3e63dd or #36d.' });
    return z.NEVER;
  }
  return color;
});
