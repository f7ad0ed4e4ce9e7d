import type { Knex } from 'knex';
import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { idSchema } from '../channels/channels.ts';
import type { DataPointRow } from '../datapoints/read.ts';

/** Data points one insight can be made from at once: a page of the channel's list. */
export const MAX_CITED = 100;
/** Characters of a data point an insight quotes; the citation keeps the whole point. */
const QUOTED = 1000;

const idsSchema = z
  .array(idSchema('dataPointIds'), { error: 'dataPointIds lists data point ids.' })
  .min(1, 'Select at least one data point (dataPointIds).')
  .max(MAX_CITED, `An insight can be made from at most ${MAX_CITED} data points at once (dataPointIds).`);

type PointWithChannel = DataPointRow & { channel_name: string };

/** Live data points of the caller's workspace, in the order asked; NOT_FOUND names the first missing. */
export async function readablePoints(
  trx: Knex.Transaction,
  workspaceId: string,
  ids: readonly string[],
): Promise<PointWithChannel[]> {
  const rows = (await trx('channel_datapoints as d')
    .join('channels as c', 'c.id', 'd.channel_id')
    .where({ 'd.workspace_id': workspaceId })
    .whereIn('d.id', [...ids])
    .whereNull('c.deleted_at')
    .select('d.*', 'c.name as channel_name')) as PointWithChannel[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('That data point');
    return row;
  });
}

/** The insight's document: a line of context, then each data point quoted with where it came from. */
function evidenceDocument(points: readonly PointWithChannel[]) {
  const text = (t: string) => ({ type: 'text', text: t });
  const channels = [...new Set(points.map((p) => p.channel_name))];
  const intro = `Evidence: ${points.length === 1 ? 'one data point' : `${points.length} data points`} from ${channels.join(', ')}.`;
  return {
    type: 'doc',
    content: [
      { type: 'paragraph', content: [text(intro)] },
      ...points.flatMap((p) => {
        const quote = [...p.content].length > QUOTED ? `${[...p.content].slice(0, QUOTED).join('')}…` : p.content;
        return [
          {
            type: 'blockquote',
            content: quote
              .split('\n')
              .map((line) => (line ? { type: 'paragraph', content: [text(line)] } : { type: 'paragraph' })),
          },
          { type: 'paragraph', content: [text(`— ${p.channel_name}, ${p.created_at.toISOString().slice(0, 10)}`)] },
        ];
      }),
    ],
  };
}

const createArgs = z.object({
  projectId: idSchema('projectId'),
  title: z.string().max(255, 'An insight title can be at most 255 characters long.').nullish(),
  dataPointIds: idsSchema,
});

/**
 * Makes an insight of selected data points: it quotes them and cites each one. The points are
 * checked readable first; the insight is then created by research under its own rules (the
 * caller must be able to write to the project).
 */
export async function createInsightFromDataPoints(
  ctx: RequestContext,
  research: ResearchServices,
  args: unknown,
): Promise<{ id: string; projectId: string; title: string; cited: number }> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const input = validate(createArgs, args);
  const points = await ctx.tx((trx) => readablePoints(trx, caller.workspaceId, input.dataPointIds));
  const title = input.title?.trim() || `Insight from ${points[0]!.channel_name}`;
  const insight = await research.createInsight(ctx, {
    projectId: input.projectId,
    title,
    content: evidenceDocument(points),
  });
  await ctx.tx((trx) =>
    trx('insight_datapoint_citations')
      .insert(
        points.map((p) => ({
          workspace_id: caller.workspaceId,
          insight_id: insight.id,
          datapoint_id: p.id,
          created_by: caller.userId,
        })),
      )
      .onConflict(['insight_id', 'datapoint_id'])
      .ignore(),
  );
  return { ...insight, cited: points.length };
}

/** The live data points an insight cites, in the order they were cited. */
export async function citedDataPoints(ctx: RequestContext, insightId: string): Promise<DataPointRow[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  return ctx.tx(
    async (trx) =>
      (await trx('insight_datapoint_citations as ic')
        .join('channel_datapoints as d', 'd.id', 'ic.datapoint_id')
        .join('channels as c', 'c.id', 'd.channel_id')
        .where({ 'ic.workspace_id': caller.workspaceId, 'ic.insight_id': insightId })
        .whereNull('c.deleted_at')
        .orderBy([{ column: 'ic.created_at' }, { column: 'd.created_at', order: 'desc' }])
        .limit(1000)
        .select('d.*')) as DataPointRow[],
  );
}

/** Data points by id for a selection (the insight-creation page), in the order asked. */
export async function dataPointsById(ctx: RequestContext, args: unknown): Promise<DataPointRow[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { ids } = validate(z.object({ ids: idsSchema }), { ids: (args as { ids?: unknown }).ids });
  return ctx.tx((trx) => readablePoints(trx, caller.workspaceId, ids));
}
