import { z } from 'zod';

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Colours are hex; a 3-digit hex expands to 6 (000 §5). Always `#rrggbb`, lower case. */
export function normalizeHexColor(value: string): string | null {
  const m = HEX.exec(value.trim());
  if (!m) return null;
  const digits = m[1]!.toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

/** A zod schema for an optional colour field that normalises as it parses. */
export const colorSchema = (field: string) =>
  z
    .string()
    .transform((v, ctx) => {
      const color = normalizeHexColor(v);
      if (!color) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a hex colour such as #3a7 or #33aa77.` });
        return z.NEVER;
      }
      return color;
    })
    .nullable()
    .optional();
