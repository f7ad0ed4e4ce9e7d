import { withTenant, type JobDefinition, type JobQueue, type ModuleContext } from '@fieldbook/core';
import { themePlacer, type ThemeCentroid } from './cluster/cluster.ts';
import { deserializeModel } from './cluster/text.ts';
import { embeddingsFor } from './embeddings.ts';

/** Placing a channel's new points into its existing themes, without clustering again. */
export interface PlacementJob {
  workspaceId: string;
  userId: string | null;
  channelId: string;
}

export const PLACEMENT_QUEUE = 'channel-theme-placement';
/** New points of a burst of pushes are placed together, a few seconds after the first. */
const DEBOUNCE_SECONDS = 3;

/** Queues placement for a channel's new points (one waiting job per channel). */
export async function schedulePlacement(jobs: JobQueue, job: PlacementJob): Promise<void> {
  await jobs.send(PLACEMENT_QUEUE, job, { singletonKey: job.channelId, startAfterSeconds: DEBOUNCE_SECONDS });
}

/** Places every point of the channel that has no place yet, when it has been clustered. */
export async function placeNewPoints(ctx: ModuleContext, job: PlacementJob): Promise<number> {
  const scope = { workspaceId: job.workspaceId, userId: job.userId };
  const state = await withTenant(ctx.db.app, scope, async (trx) => {
    const run = (await trx('channel_clusterings')
      .where({ channel_id: job.channelId, status: 'COMPLETED' })
      .orderBy('version', 'desc')
      .first('model', 'representation')) as
      | { model: Record<string, number> | null; representation: string | null }
      | undefined;
    if (!run) return null;
    const themes = (await trx('channel_themes')
      .where({ channel_id: job.channelId })
      .whereNull('retired_at')
      .whereNotNull('centroid')
      .select('id', 'centroid', 'min_similarity')) as Array<{
      id: string;
      centroid: ThemeCentroid;
      min_similarity: number;
    }>;
    const points = (await trx('channel_datapoints as d')
      .leftJoin('channel_theme_members as m', 'm.datapoint_id', 'd.id')
      .where({ 'd.workspace_id': job.workspaceId, 'd.channel_id': job.channelId })
      .whereNull('m.datapoint_id')
      .limit(50_000)
      .select('d.id', 'd.content')) as Array<{ id: string; content: string }>;
    return { run, themes, points };
  });
  if (!state || !state.points.length) return 0;
  const { run, themes, points } = state;
  const usesEmbeddings = run.representation && run.representation !== 'local';
  const embedded = usesEmbeddings ? await embeddingsFor(ctx, scope, points) : null;
  const place = themePlacer(
    run.model ? deserializeModel(run.model) : null,
    themes.map((t) => ({ centroid: t.centroid, minSimilarity: t.min_similarity })),
  );
  const rows = points.map((p, i) => {
    const at = place({ text: p.content, embedding: embedded?.vectors[i] ?? null });
    return {
      datapoint_id: p.id,
      workspace_id: job.workspaceId,
      channel_id: job.channelId,
      theme_id: at ? themes[at.theme]!.id : null,
      similarity: at ? at.similarity : null,
    };
  });
  await withTenant(ctx.db.app, scope, async (trx) => {
    for (let i = 0; i < rows.length; i += 1000)
      await trx('channel_theme_members')
        .insert(rows.slice(i, i + 1000))
        .onConflict('datapoint_id')
        .ignore();
  });
  return rows.length;
}

export function placementJob(ctx: ModuleContext): JobDefinition<PlacementJob> {
  return {
    queue: PLACEMENT_QUEUE,
    settings: { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 30 * 60 },
    handler: async (job) => void (await placeNewPoints(ctx, job.data)),
  };
}
