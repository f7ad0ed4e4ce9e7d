import { withTenant, type ModuleContext } from '@fieldbook/core';

/** Texts sent to the embedding model per call. */
const EMBED_BATCH = 100;

/**
 * Embeddings of the points from the configured model, or null to use the shipped text model.
 * Vectors are stored per point and model, so a later clustering embeds only new points. A model
 * that fails falls back to the text model: themes never depend on a reachable server.
 */
export async function embeddingsFor(
  ctx: ModuleContext,
  scope: { workspaceId: string; userId: string | null },
  points: ReadonlyArray<{ id: string; content: string }>,
): Promise<{ model: string; vectors: number[][] } | null> {
  const model = ctx.ai.model?.embeddingModel;
  if (!model || !points.length) return null;
  try {
    await ctx.ai.ensureAllowed({ workspaceId: scope.workspaceId, userId: scope.userId, feature: 'summaries' });
    const stored = new Map<string, number[]>();
    const ids = points.map((p) => p.id);
    await withTenant(ctx.db.app, scope, async (trx) => {
      for (let i = 0; i < ids.length; i += 5000) {
        const rows = (await trx('channel_datapoint_embeddings')
          .where({ model })
          .whereIn('datapoint_id', ids.slice(i, i + 5000))
          .select('datapoint_id', 'vector')) as Array<{ datapoint_id: string; vector: number[] }>;
        for (const r of rows) stored.set(r.datapoint_id, r.vector);
      }
    });
    const missing = points.filter((p) => !stored.has(p.id));
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      const batch = missing.slice(i, i + EMBED_BATCH);
      const res = await ctx.ai.embed(
        { workspaceId: scope.workspaceId, userId: scope.userId, feature: 'summaries' },
        batch.map((p) => p.content.slice(0, 8000)),
      );
      await withTenant(ctx.db.app, scope, (trx) =>
        trx('channel_datapoint_embeddings')
          .insert(
            batch.map((p, j) => ({
              datapoint_id: p.id,
              workspace_id: scope.workspaceId,
              model,
              vector: res.vectors[j]!,
            })),
          )
          .onConflict(['datapoint_id', 'model'])
          .merge(),
      );
      batch.forEach((p, j) => stored.set(p.id, res.vectors[j]!));
    }
    return { model, vectors: points.map((p) => stored.get(p.id)!) };
  } catch (error) {
    ctx.logger.warn({ err: error }, 'embeddings unavailable; clustering with the local text model');
    return null;
  }
}
