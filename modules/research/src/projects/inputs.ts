import { z } from 'zod';
import { CONTENT_LIMITS } from './limits.ts';

const a = (label: string) => (/^[aeiou]/i.test(label) ? `An ${label}` : `A ${label}`);

export const idSchema = (what = 'id') => z.uuid({ error: `${what} must be a valid id.` });

/** A required title of 1..200 characters, trimmed. */
export const requiredTitle = (label: string) =>
  z
    .string({ error: `Give the ${label} a title.` })
    .trim()
    .min(1, `Give the ${label} a title.`)
    .max(CONTENT_LIMITS.title, `${a(label)} title can be at most ${CONTENT_LIMITS.title} characters long.`);

/** An optional title of at most 200 characters (notes and insights may be untitled). */
export const optionalTitle = (label: string) =>
  z
    .string()
    .trim()
    .max(CONTENT_LIMITS.title, `${a(label)} title can be at most ${CONTENT_LIMITS.title} characters long.`);

export const moveSchema = z.object({
  id: idSchema(),
  previousId: idSchema('previousId').nullish(),
  nextId: idSchema('nextId').nullish(),
});

/** True when the client sent the key at all, so that an explicit null can clear a value. */
export const sent = (input: object, key: string): boolean => Object.prototype.hasOwnProperty.call(input, key);
