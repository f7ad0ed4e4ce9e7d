import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';
import { idSchema } from '../channels/channels.ts';
import { getDataPoint, type DataPointRow } from '../datapoints/read.ts';

/** Text similarity uses trigrams over the first 50 characters (002 §9). */
export const SIMILARITY_PREFIX = 50;
export const SIMILAR_LIMIT = { default: 5, max: 50 };

const args = z.object({
  id: idSchema(),
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(SIMILAR_LIMIT.max, `At most ${SIMILAR_LIMIT.max} similar data points can be listed (first).`)
    .nullish(),
});

export type SimilarRow = DataPointRow & { similarity: number };

/**
 * The data points of the same channel whose first 50 characters share the most trigrams with this
 * one's, most alike first. `%` (pg_trgm's similarity threshold, 0.3) lets the trigram index of
 * migration 0051 (on exactly this expression) find the candidates.
 */
export async function similarDataPoints(ctx: RequestContext, input: unknown): Promise<SimilarRow[]> {
  const { id, first } = validate(args, input);
  const point = await getDataPoint(ctx, { id });
  return ctx.tx(async (trx) => {
    const probe = point.content.slice(0, SIMILARITY_PREFIX);
    const rows = (await trx('channel_datapoints')
      .where({ workspace_id: point.workspace_id, channel_id: point.channel_id })
      .whereNot({ id: point.id })
      .whereRaw('fb_search_text(left(content, 50)) % fb_search_text(left(?, 50))', [probe])
      .select(
        '*',
        trx.raw('similarity(fb_search_text(left(content, 50)), fb_search_text(left(?, 50)))::float8 as similarity', [
          probe,
        ]),
      )
      .orderBy([
        { column: 'similarity', order: 'desc' },
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(first ?? SIMILAR_LIMIT.default)) as SimilarRow[];
    return rows;
  });
}
