import type { Knex } from 'knex';
import { z } from 'zod';
import { openShareLink, validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_SHARE_TYPES, sharedChannelId, type ChannelShareRow, type ChannelShareType } from './links.ts';

/** Data points a public view lists at most (newest first). */
export const PUBLIC_POINTS = { default: 25, max: 100 };

/**
 * What an anonymous viewer of a channel or dataset link sees: the channel's name and description,
 * the dataset's name and source, and its data points' text, date and sentiment. Who gave the
 * feedback (person, email), the source's raw record, its fields and links into the help desk stay
 * private: they are about customers, and a link shares the feedback, not the people.
 */
export interface SharedChannelDataView {
  objectType: ChannelShareType;
  sharedAt: Date;
  channel: { name: string; description: string | null };
  dataset: { name: string; source: string } | null;
  dataPointCount: number;
  dataPoints: Array<{ id: string; content: string; createdAt: Date; sentiment: string | null }>;
}

const args = z.object({
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(PUBLIC_POINTS.max, `A public view lists at most ${PUBLIC_POINTS.max} data points (first).`)
    .nullish(),
});

/**
 * The channel or dataset behind the request's share token, read on every request in its
 * workspace while the link is live and public links are on (`openShareLink`); a channel in the
 * trash makes the link dead.
 */
export async function sharedChannelData(
  app: Knex,
  ctx: RequestContext,
  input: unknown,
): Promise<SharedChannelDataView> {
  const { first } = validate(args, input);
  return openShareLink<ChannelShareRow, SharedChannelDataView>(app, ctx, CHANNEL_SHARE_TYPES, async (trx, share) => {
    const workspaceId = share.workspace_id;
    const channelId = await sharedChannelId(trx, workspaceId, share.object_type, share.object_id);
    const channel = channelId
      ? ((await trx('channels')
          .where({ id: channelId, workspace_id: workspaceId })
          .whereNull('deleted_at')
          .first('name', 'description')) as { name: string; description: string | null } | undefined)
      : undefined;
    if (!channel) return null;
    const dataset =
      share.object_type === 'dataset'
        ? ((await trx('channel_datasets')
            .where({ id: share.object_id, workspace_id: workspaceId })
            .first('name', 'source')) as { name: string; source: string })
        : null;
    const points = () => {
      const q = trx('channel_datapoints').where({ workspace_id: workspaceId, channel_id: channelId });
      if (dataset) q.where({ dataset_id: share.object_id });
      return q;
    };
    const rows = (await points()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(first ?? PUBLIC_POINTS.default)
      .select('id', 'content', 'created_at', 'sentiment')) as Array<{
      id: string;
      content: string;
      created_at: Date;
      sentiment: string | null;
    }>;
    const [{ count }] = (await points().count<Array<{ count: string }>>('* as count')) as [{ count: string }];
    return {
      objectType: share.object_type,
      sharedAt: share.created_at,
      channel,
      dataset,
      dataPointCount: Number(count),
      dataPoints: rows.map((r) => ({ id: r.id, content: r.content, createdAt: r.created_at, sentiment: r.sentiment })),
    };
  });
}
