import { z } from 'zod';
import { hexColorSchema } from '../colors/color-schema.ts';

/** Limits of 000 §9 for tags, plus the description length this product chose. */
export const TAG_LIMITS = { tagTitle: 200, boardTitle: 50, groupTitle: 50, description: 2000 } as const;

export const uuid = (what: string) => z.uuid({ error: `${what} must be a valid id.` });

const title = (what: string, max: number) =>
  z
    .string({ error: `Give the ${what} a title.` })
    .trim()
    .min(1, `Give the ${what} a title.`)
    .max(max, `A ${what} title can be at most ${max} characters long.`);

export const tagTitle = title('tag', TAG_LIMITS.tagTitle);
export const boardTitle = title('tag board', TAG_LIMITS.boardTitle);
export const groupTitle = title('tag group', TAG_LIMITS.groupTitle);

/** Hex colours, the 3-digit form expanded to 6 (000 §5). */
export const hexColor = hexColorSchema;

export const description = z
  .string()
  .trim()
  .max(TAG_LIMITS.description, `A description can be at most ${TAG_LIMITS.description} characters long.`)
  .transform((d) => (d === '' ? null : d));

/** A list of ids with repeats removed, order kept. */
export const idList = (what: string) =>
  z.array(uuid(what)).transform((ids) => [...new Set(ids.map((i) => i.toLowerCase()))]);
