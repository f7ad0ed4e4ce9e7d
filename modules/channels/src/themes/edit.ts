import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, badInput, notFound, validate, type JobQueue, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { clusterTexts, type ThemeCentroid } from './cluster/cluster.ts';
import { AMOUNTS, CLUSTERING, SENSITIVITIES } from './cluster/params.ts';
import { themeFor, topicFor, type ClusteringView, type ThemeRow, type TopicRow } from './read.ts';
import { CLUSTERING_QUEUE, THEME_CREATED, type ClusteringJob } from './run.ts';
import type { EventBus } from '@fieldbook/core';

/** Theme and topic title (000 §9). */
export const THEME_TITLE_MAX = 300;

const title = z
  .string({ error: 'Give it a title.' })
  .trim()
  .min(1, 'Give it a title.')
  .max(THEME_TITLE_MAX, `A theme or topic title can be at most ${THEME_TITLE_MAX} characters long.`);

const sensitivities = SENSITIVITIES.map((s) => s.value) as number[];
const amounts = AMOUNTS.map((a) => a.value) as number[];

/** Queues a new clustering version of the channel (contributors and above). */
export async function clusterChannel(ctx: RequestContext, jobs: JobQueue, args: unknown): Promise<ClusteringView> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const input = validate(
    z.object({
      channelId: idSchema('channelId'),
      sensitivity: z
        .number()
        .int()
        .refine((v) => sensitivities.includes(v), 'sensitivity must be from 1 (Very strict) to 5 (Very relaxed).')
        .nullish(),
      amount: z
        .number()
        .int()
        .refine((v) => amounts.includes(v), 'amount must be a percent of items: 3 (Least), 5, 10, 15 or 25 (Most).')
        .nullish(),
    }),
    args,
  );
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channel-clustering:${input.channelId}`]);
    const busy = await trx('channel_clusterings')
      .where({ channel_id: input.channelId })
      .whereIn('status', ['QUEUED', 'RUNNING'])
      .first('id');
    if (busy)
      throw new AppError('INVALID_OPERATION', 'This channel is being clustered already; wait for it to finish.');
    const [{ max }] = (await trx('channel_clusterings')
      .where({ channel_id: input.channelId })
      .max('version as max')) as [{ max: number | null }];
    const [row] = (await trx('channel_clusterings')
      .insert({
        workspace_id: caller.workspaceId,
        channel_id: input.channelId,
        version: (max ?? 0) + 1,
        sensitivity: input.sensitivity ?? CLUSTERING.defaultSensitivity,
        amount: input.amount === undefined ? CLUSTERING.defaultAmount : input.amount,
        created_by: caller.userId,
      })
      .returning('*')) as ClusteringView[];
    const job: ClusteringJob = {
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      channelId: input.channelId,
      clusteringId: row!.id,
    };
    await jobs.send(CLUSTERING_QUEUE, job, { trx });
    return row!;
  });
}

export async function renameTheme(ctx: RequestContext, args: unknown): Promise<ThemeRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const input = validate(z.object({ id: idSchema(), title }), args);
  return ctx.tx(async (trx) => {
    await themeFor(trx, caller, input.id);
    await trx('channel_themes')
      .where({ id: input.id })
      .update({ title: input.title, title_manual: true, updated_at: trx.fn.now() });
    return themeFor(trx, caller, input.id);
  });
}

export async function renameTopic(ctx: RequestContext, args: unknown): Promise<TopicRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const input = validate(z.object({ id: idSchema(), title }), args);
  return ctx.tx(async (trx) => {
    await topicFor(trx, caller, input.id);
    await trx('channel_topics')
      .where({ id: input.id })
      .update({ title: input.title, title_manual: true, updated_at: trx.fn.now() });
    return topicFor(trx, caller, input.id);
  });
}

/** The centre of merged themes: their term weights added by size, renormalised. */
function mergeCentroids(parts: ReadonlyArray<{ centroid: ThemeCentroid | null; size: number }>): ThemeCentroid | null {
  const first = parts.find((p) => p.centroid)?.centroid;
  if (!first) return null;
  if (first.kind === 'embedding') {
    const sum = new Array<number>(first.vector.length).fill(0);
    for (const p of parts)
      if (p.centroid?.kind === 'embedding') p.centroid.vector.forEach((v, i) => (sum[i]! += v * p.size));
    const norm = Math.sqrt(sum.reduce((s, v) => s + v * v, 0)) || 1;
    return { kind: 'embedding', model: first.model, vector: sum.map((v) => v / norm) };
  }
  const sum = new Map<string, number>();
  for (const p of parts)
    if (p.centroid?.kind === 'terms')
      for (const [k, v] of Object.entries(p.centroid.terms)) sum.set(k, (sum.get(k) ?? 0) + v * p.size);
  const norm = Math.sqrt([...sum.values()].reduce((s, v) => s + v * v, 0)) || 1;
  const top = [...sum].sort((a, b) => b[1] - a[1]).slice(0, 400);
  return { kind: 'terms', terms: Object.fromEntries(top.map(([k, v]) => [k, v / norm])) };
}

/** Merges themes into one: their points move to the target, and they point at it from then on. */
export async function mergeThemes(ctx: RequestContext, args: unknown): Promise<ThemeRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const input = validate(
    z.object({
      targetId: idSchema('targetId'),
      sourceIds: z
        .array(idSchema('sourceIds'))
        .min(1, 'Choose at least one theme to merge (sourceIds).')
        .max(50, 'At most 50 themes merge at once (sourceIds).'),
    }),
    args,
  );
  return ctx.tx(async (trx) => {
    const target = await themeFor(trx, caller, input.targetId);
    if (target.retired_at)
      throw new AppError(
        'INVALID_OPERATION',
        'That theme was retired by a later clustering; merge into a current theme.',
      );
    const sources: ThemeRow[] = [];
    for (const id of new Set(input.sourceIds)) {
      if (id === target.id) throw badInput('sourceIds', 'A theme cannot be merged into itself (sourceIds).');
      const s = await themeFor(trx, caller, id);
      if (s.channel_id !== target.channel_id || s.retired_at)
        throw badInput('sourceIds', 'Only current themes of the same channel can be merged (sourceIds).');
      sources.push(s);
    }
    const rows = (await trx('channel_themes')
      .whereIn('id', [target.id, ...sources.map((s) => s.id)])
      .select('id', 'centroid', 'min_similarity')) as Array<{
      id: string;
      centroid: ThemeCentroid | null;
      min_similarity: number;
    }>;
    const sizeOf = (id: string) =>
      id === target.id ? target.datum_count! : sources.find((s) => s.id === id)!.datum_count!;
    const centroid = mergeCentroids(rows.map((r) => ({ centroid: r.centroid, size: Math.max(1, sizeOf(r.id)) })));
    await trx('channel_theme_members')
      .whereIn(
        'theme_id',
        sources.map((s) => s.id),
      )
      .update({ theme_id: target.id });
    await trx('channel_themes')
      .whereIn(
        'id',
        sources.map((s) => s.id),
      )
      .update({ retired_at: trx.fn.now(), merged_into: target.id, topic_id: null, updated_at: trx.fn.now() });
    await trx('channel_themes')
      .where({ id: target.id })
      .update({
        centroid: centroid ? JSON.stringify(centroid) : null,
        min_similarity: Math.min(...rows.map((r) => r.min_similarity)),
        summary: null,
        summary_model: null,
        summarized_at: null,
        updated_at: trx.fn.now(),
      });
    return themeFor(trx, caller, target.id);
  });
}

async function newTheme(
  trx: Knex.Transaction,
  events: EventBus,
  from: ThemeRow,
  fields: { title: string; phrases: string[]; centroid: ThemeCentroid; minSimilarity: number },
): Promise<string> {
  const [row] = (await trx('channel_themes')
    .insert({
      workspace_id: from.workspace_id,
      channel_id: from.channel_id,
      topic_id: from.topic_id,
      title: fields.title,
      phrases: JSON.stringify(fields.phrases),
      centroid: JSON.stringify(fields.centroid),
      min_similarity: fields.minSimilarity,
      version: from.version,
    })
    .returning(['id', 'title'])) as Array<{ id: string; title: string }>;
  const channel = (await trx('channels').where({ id: from.channel_id }).first('name')) as { name: string };
  await events.publish(
    THEME_CREATED,
    from.workspace_id,
    { channel: { id: from.channel_id, title: channel.name }, theme: { id: row!.id, title: row!.title } },
    trx,
  );
  return row!.id;
}

/** Splits a theme in two by clustering its own points; the larger part keeps the theme. */
export async function splitTheme(ctx: RequestContext, events: EventBus, args: unknown): Promise<ThemeRow[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const theme = await themeFor(trx, caller, id);
    if (theme.retired_at)
      throw new AppError('INVALID_OPERATION', 'That theme was retired by a later clustering; split a current theme.');
    const minimum = CLUSTERING.minItems * 2;
    if (theme.datum_count! < minimum)
      throw new AppError(
        'INVALID_OPERATION',
        `A theme needs at least ${minimum} data points to split (${CLUSTERING.minItems} per theme).`,
      );
    const points = (await trx('channel_theme_members as m')
      .join('channel_datapoints as d', 'd.id', 'm.datapoint_id')
      .where({ 'm.theme_id': id })
      .orderBy('d.id')
      .select('d.id', 'd.content')) as Array<{ id: string; content: string }>;
    const parts = clusterTexts({
      texts: points.map((p) => p.content),
      sensitivity: 5,
      amountPercent: null,
      clusters: 2,
    });
    if (parts.themes.length < 2)
      throw new AppError('INVALID_OPERATION', 'These data points do not separate into two themes.');
    const [big, small] = [...parts.themes].sort((a, b) => b.members.length - a.members.length) as [
      (typeof parts.themes)[number],
      (typeof parts.themes)[number],
    ];
    const otherId = await newTheme(trx, events, theme, small);
    const moved = small.members.map((i) => points[i]!.id);
    for (let i = 0; i < moved.length; i += 1000)
      await trx('channel_theme_members')
        .whereIn('datapoint_id', moved.slice(i, i + 1000))
        .update({ theme_id: otherId });
    await trx('channel_themes')
      .where({ id })
      .update({
        centroid: JSON.stringify(big.centroid),
        min_similarity: big.minSimilarity,
        phrases: JSON.stringify(big.phrases),
        ...(theme.title_manual ? {} : { title: big.title }),
        summary: null,
        summary_model: null,
        updated_at: trx.fn.now(),
      });
    return [await themeFor(trx, caller, id), await themeFor(trx, caller, otherId)];
  });
}

/** Moves a data point to another theme of its channel, or to the outliers (themeId null); clustering again keeps it there. */
export async function moveDataPoint(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const input = validate(
    z.object({ dataPointId: idSchema('dataPointId'), themeId: idSchema('themeId').nullish() }),
    args,
  );
  return ctx.tx(async (trx) => {
    const point = (await trx('channel_datapoints as d')
      .join('channels as c', 'c.id', 'd.channel_id')
      .where({ 'd.id': input.dataPointId, 'd.workspace_id': caller.workspaceId })
      .whereNull('c.deleted_at')
      .first('d.id', 'd.channel_id')) as { id: string; channel_id: string } | undefined;
    if (!point) throw notFound('That data point');
    if (input.themeId) {
      const theme = await themeFor(trx, caller, input.themeId);
      if (theme.channel_id !== point.channel_id || theme.retired_at)
        throw badInput('themeId', 'A data point can move only to a current theme of its own channel (themeId).');
    }
    await trx('channel_theme_members')
      .insert({
        datapoint_id: point.id,
        workspace_id: caller.workspaceId,
        channel_id: point.channel_id,
        theme_id: input.themeId ?? null,
        manual: true,
        similarity: null,
      })
      .onConflict('datapoint_id')
      .merge({ theme_id: input.themeId ?? null, manual: true, similarity: null, placed_at: trx.fn.now() });
    return true;
  });
}
