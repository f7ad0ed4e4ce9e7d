import type { Knex } from 'knex';
import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf, type Caller } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { POINT_COLUMNS, type DataPointRow } from '../datapoints/read.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { THEME_COUNT_SQL } from './counts.ts';
import { CLUSTERING_STALE_SECONDS } from './run.ts';

export interface ThemeRow {
  id: string;
  workspace_id: string;
  channel_id: string;
  topic_id: string | null;
  title: string;
  title_manual: boolean;
  phrases: string[];
  summary: string | null;
  summary_model: string | null;
  /** Quotes its summary's model wrote that were not found in the theme's data points. */
  summary_dropped_quotes: number;
  summarized_at: Date | null;
  version: number;
  merged_into: string | null;
  created_at: Date;
  updated_at: Date;
  retired_at: Date | null;
  /** Filled by the queries below. */
  datum_count?: number;
}

export interface TopicRow {
  id: string;
  workspace_id: string;
  channel_id: string;
  title: string;
  title_manual: boolean;
  version: number;
  created_at: Date;
  retired_at: Date | null;
}

export interface ClusteringView {
  id: string;
  version: number;
  status: string;
  progress: number;
  sensitivity: number;
  amount: number | null;
  representation: string | null;
  theme_count: number | null;
  outlier_count: number | null;
  point_count: number | null;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
  /** Running, but its worker has been silent too long: it died, and the run is being taken over. */
  taking_over?: boolean;
}

const countSql = THEME_COUNT_SQL;
/** What a theme is read as: not its centroid, which only placement reads (an embedding is thousands of numbers). */
const THEME_COLUMNS = [
  'id',
  'workspace_id',
  'channel_id',
  'topic_id',
  'title',
  'title_manual',
  'phrases',
  'summary',
  'summary_model',
  'summary_dropped_quotes',
  'summarized_at',
  'version',
  'merged_into',
  'created_at',
  'updated_at',
  'retired_at',
].map((c) => `t.${c}`);

/** A theme of a live channel in the caller's workspace (retired ones too: what cites them still opens). */
export async function themeFor(
  trx: Knex.Transaction,
  caller: Pick<Caller, 'workspaceId'>,
  id: string,
): Promise<ThemeRow> {
  const row = (await trx('channel_themes as t')
    .join('channels as c', 'c.id', 't.channel_id')
    .where({ 't.id': id, 't.workspace_id': caller.workspaceId })
    .whereNull('c.deleted_at')
    .first(...THEME_COLUMNS, trx.raw(countSql))) as ThemeRow | undefined;
  if (!row) throw notFound('That theme');
  return row;
}

export async function topicFor(
  trx: Knex.Transaction,
  caller: Pick<Caller, 'workspaceId'>,
  id: string,
): Promise<TopicRow> {
  const row = (await trx('channel_topics as t')
    .join('channels as c', 'c.id', 't.channel_id')
    .where({ 't.id': id, 't.workspace_id': caller.workspaceId })
    .whereNull('c.deleted_at')
    .first('t.*')) as TopicRow | undefined;
  if (!row) throw notFound('That topic');
  return row;
}

/** A channel's live themes, the largest first. */
export async function themesOf(
  trx: Knex.Transaction,
  workspaceId: string,
  channelId: string,
  topicId?: string,
): Promise<ThemeRow[]> {
  const q = trx('channel_themes as t')
    .where({ 't.workspace_id': workspaceId, 't.channel_id': channelId })
    .whereNull('t.retired_at');
  if (topicId) q.where('t.topic_id', topicId);
  return (await q
    .select(...THEME_COLUMNS, trx.raw(countSql))
    .orderBy([{ column: 'datum_count', order: 'desc' }, { column: 't.title' }])
    .limit(1000)) as ThemeRow[];
}

export async function listThemes(ctx: RequestContext, args: unknown): Promise<ThemeRow[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { channelId } = validate(z.object({ channelId: idSchema('channelId') }), args);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    return themesOf(trx, caller.workspaceId, channelId);
  });
}

export async function getTheme(ctx: RequestContext, args: unknown): Promise<ThemeRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx((trx) => themeFor(trx, caller, id));
}

export async function listTopics(ctx: RequestContext, args: unknown): Promise<TopicRow[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { channelId } = validate(z.object({ channelId: idSchema('channelId') }), args);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    return (await trx('channel_topics')
      .where({ workspace_id: caller.workspaceId, channel_id: channelId })
      .whereNull('retired_at')
      .orderBy('title')
      .limit(1000)) as TopicRow[];
  });
}

export async function getTopic(ctx: RequestContext, args: unknown): Promise<TopicRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx((trx) => topicFor(trx, caller, id));
}

/** The latest clustering of a channel, or null when it was never clustered. */
export async function latestClustering(ctx: RequestContext, args: unknown): Promise<ClusteringView | null> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { channelId } = validate(z.object({ channelId: idSchema('channelId') }), args);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    return (
      ((await trx('channel_clusterings')
        .where({ workspace_id: caller.workspaceId, channel_id: channelId })
        .orderBy('version', 'desc')
        .first(
          '*',
          // By the database's clock, which also wrote the heartbeat.
          trx.raw(
            "status = 'RUNNING' and coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ?) as taking_over",
            [CLUSTERING_STALE_SECONDS],
          ),
        )) as ClusteringView | undefined) ?? null
    );
  });
}

const pageArgs = {
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(CHANNEL_LIMITS.pageSize, `A page can have at most ${CHANNEL_LIMITS.pageSize} data points (first).`)
    .nullish(),
  offset: z
    .number()
    .int()
    .min(0, 'offset must be 0 or more.')
    .max(1_000_000, 'offset can be at most 1000000.')
    .nullish(),
};

export interface PointPage {
  nodes: DataPointRow[];
  totalCount: number;
  hasNextPage: boolean;
}

/**
 * A page of memberships joined to their points, newest first by the membership's copy of the
 * point's date (the (theme, created_at) index gives the page without reading the others).
 * `counted` is the total when counters know it; otherwise the rows are counted.
 */
async function pointPage(
  base: () => Knex.QueryBuilder,
  first: number,
  offset: number,
  counted?: number,
): Promise<PointPage> {
  const nodes = (await base()
    .select(POINT_COLUMNS.map((c) => `d.${c}`))
    .orderBy([
      { column: 'm.created_at', order: 'desc' },
      { column: 'm.datapoint_id', order: 'desc' },
    ])
    .limit(first)
    .offset(offset)) as DataPointRow[];
  const total =
    counted ?? Number(((await base().count<Array<{ count: string }>>('* as count')) as [{ count: string }])[0].count);
  return { nodes, totalCount: total, hasNextPage: offset + nodes.length < total };
}

/** A theme's data points, newest first (default datum count 10, 002 §9). */
export async function themeDataPoints(ctx: RequestContext, args: unknown): Promise<PointPage> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { themeId, first, offset } = validate(z.object({ themeId: idSchema('themeId'), ...pageArgs }), args);
  return ctx.tx(async (trx) => {
    // The theme, read with its count from the per-theme counters, says the total.
    const theme = await themeFor(trx, caller, themeId);
    const base = () =>
      trx('channel_theme_members as m')
        .join('channel_datapoints as d', 'd.id', 'm.datapoint_id')
        .where({ 'm.workspace_id': caller.workspaceId, 'm.theme_id': themeId });
    return pointPage(base, first ?? CHANNEL_LIMITS.defaultDatumCount, offset ?? 0, theme.datum_count ?? 0);
  });
}

/** Points the last clustering placed in no theme (/channels/{id}/outliers). */
export async function outlierDataPoints(ctx: RequestContext, args: unknown): Promise<PointPage> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { channelId, first, offset } = validate(z.object({ channelId: idSchema('channelId'), ...pageArgs }), args);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    const base = () =>
      trx('channel_theme_members as m')
        .join('channel_datapoints as d', 'd.id', 'm.datapoint_id')
        .where({ 'm.workspace_id': caller.workspaceId, 'm.channel_id': channelId })
        .whereNull('m.theme_id');
    return pointPage(base, first ?? CHANNEL_LIMITS.pageSize, offset ?? 0);
  });
}

/** The theme a data point is placed in (null: an outlier, or not placed yet). */
export async function themeOfPoint(
  trx: Knex.Transaction,
  workspaceId: string,
  dataPointId: string,
): Promise<{ theme: ThemeRow | null; placed: boolean }> {
  const m = (await trx('channel_theme_members')
    .where({ workspace_id: workspaceId, datapoint_id: dataPointId })
    .first('theme_id')) as { theme_id: string | null } | undefined;
  if (!m) return { theme: null, placed: false };
  if (!m.theme_id) return { theme: null, placed: true };
  const theme = (await trx('channel_themes as t')
    .where({ 't.id': m.theme_id })
    .first(...THEME_COLUMNS, trx.raw(countSql))) as ThemeRow | undefined;
  return { theme: theme ?? null, placed: true };
}
