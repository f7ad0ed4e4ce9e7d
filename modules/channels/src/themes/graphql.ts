import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { presentDataPoints, type DataPointView } from '../datapoints/present.ts';
import { AMOUNTS, SENSITIVITIES } from './cluster/params.ts';
import { clusterChannel, mergeThemes, moveDataPoint, renameTheme, renameTopic, splitTheme } from './edit.ts';
import {
  getTheme,
  getTopic,
  latestClustering,
  listThemes,
  listTopics,
  outlierDataPoints,
  themeDataPoints,
  themeOfPoint,
  themesOf,
  type ClusteringView,
  type PointPage,
  type ThemeRow,
  type TopicRow,
} from './read.ts';
import { emergingThemes, themeSeries } from './series.ts';
import {
  LOCAL_SUMMARY_LABEL,
  summarizeTheme,
  themeSummaryOf,
  themeSummaryProvenance,
  type ThemeSummary,
} from './summary.ts';

/** GraphQL contract of themes and topics (000 §2, §9; 001 §3.6; 002 §9). */
export const themesTypeDefs = /* GraphQL */ `
  extend type Query {
    "A channel's current themes, the largest first."
    channelThemes(channelId: ID!): [ChannelTheme!]!
    "A theme; one retired by a later clustering still opens (retired is true)."
    channelTheme(id: ID!): ChannelTheme!
    channelTopics(channelId: ID!): [ChannelTopic!]!
    channelTopic(id: ID!): ChannelTopic!
    "A theme's data points, newest first; first defaults to 10 (default datum count)."
    channelThemeDataPoints(themeId: ID!, first: Int, offset: Int): ChannelThemePointPage!
    "Data points the last clustering placed in no theme."
    channelOutliers(channelId: ID!, first: Int, offset: Int): ChannelThemePointPage!
    "The channel's latest clustering, or null when it was never clustered."
    channelClustering(channelId: ID!): ChannelClustering
    "A theme's data points over time: one bucket per aggregationPeriods intervals (1 to 5, default 2)."
    channelThemeSeries(themeId: ID!, interval: ChannelInterval, aggregationPeriods: Int, from: String, to: String): [ChannelSeriesPoint!]!
    "Each theme's data points in the latest period (aggregationPeriods intervals up to to, default now) and the one before, most grown first."
    channelEmergingThemes(channelId: ID!, interval: ChannelInterval, aggregationPeriods: Int, to: String): [ChannelEmergingTheme!]!
    "The clustering options of 002 §9."
    channelClusteringOptions: ChannelClusteringOptions!
  }

  extend type Mutation {
    "Contributor and above: clusters the channel again as a new version. sensitivity 1 (Very strict) to 5 (Very relaxed), default 3; amount a percent of items (3, 5, 10, 15, 25; default 10)."
    clusterChannel(channelId: ID!, sensitivity: Int, amount: Int): ChannelClustering!
    "Renames a theme (title at most 300 characters); later clusterings keep the name."
    renameChannelTheme(id: ID!, title: String!): ChannelTheme!
    renameChannelTopic(id: ID!, title: String!): ChannelTopic!
    "Moves the data points of sourceIds into targetId; the sources are retired and point at the target."
    mergeChannelThemes(targetId: ID!, sourceIds: [ID!]!): ChannelTheme!
    "Splits a theme of at least 10 data points in two; the larger part keeps the theme."
    splitChannelTheme(id: ID!): [ChannelTheme!]!
    "Moves a data point to another theme of its channel, or to the outliers when themeId is null."
    moveChannelDataPoint(dataPointId: ID!, themeId: ID): Boolean!
    "Writes the theme's summary: with the configured AI model, or quoting its most central data points."
    summarizeChannelTheme(id: ID!): ChannelThemeSummary!
  }

  extend type ChannelDataPoint {
    "The theme it is placed in; null for an outlier or a point not placed yet."
    theme: ChannelTheme
    "True when the last clustering placed it in no theme."
    isOutlier: Boolean!
  }

  type ChannelTheme {
    id: ID!
    channelId: ID!
    topic: ChannelTopic
    title: String!
    "True once a person renamed it."
    titleIsManual: Boolean!
    "Its most distinctive phrases, best first."
    phrases: [String!]!
    datumCount: Int!
    summary: ChannelThemeSummary
    "The clustering version that last placed it."
    version: Int!
    retired: Boolean!
    "The theme it was merged into."
    mergedInto: ID
    createdAt: DateTime!
  }

  type ChannelThemeSummary {
    title: String!
    "Every quote in it, cited or in quotation marks, was found word for word in the theme's data points."
    summary: String!
    datumCount: Int!
    "The model that wrote it; null for a local summary."
    model: String
    "Written by AI (gpt-4o-mini), or Local summary (no AI model configured)."
    label: String!
    "Quotes the model wrote that were not found in the data points; removed before anyone reads the summary."
    droppedQuotes: Int!
    "What made it: model, endpoint host, prompt version, inputs and tokens; null for a summary written before these were kept."
    provenance: ChannelThemeSummaryProvenance
  }

  type ChannelThemeSummaryProvenance {
    model: String!
    endpointHost: String
    promptVersion: String!
    "How many data points it was written from."
    inputCount: Int!
    promptTokens: Int!
    completionTokens: Int!
    createdAt: DateTime!
    "True for a summary made without a model (quoting data points)."
    local: Boolean!
    label: String!
  }

  type ChannelTopic {
    id: ID!
    channelId: ID!
    title: String!
    titleIsManual: Boolean!
    themes: [ChannelTheme!]!
    datumCount: Int!
    createdAt: DateTime!
  }

  type ChannelThemePointPage {
    nodes: [ChannelDataPoint!]!
    totalCount: Int!
    hasNextPage: Boolean!
  }

  enum ChannelClusteringStatus { QUEUED RUNNING COMPLETED FAILED }

  type ChannelClustering {
    id: ID!
    version: Int!
    status: ChannelClusteringStatus!
    "0 to 1."
    progress: Float!
    sensitivity: Int!
    amount: Int
    "local (the shipped text model) or the embedding model's name."
    representation: String
    themeCount: Int
    outlierCount: Int
    pointCount: Int
    error: String
    "True while a running clustering's worker has been silent over 15 s (it died): another worker takes the run over and starts it again, or it ends as failed."
    takingOver: Boolean!
    createdAt: DateTime!
    completedAt: DateTime
  }

  type ChannelEmergingTheme { theme: ChannelTheme!, previousCount: Int!, currentCount: Int! }
  type ChannelClusteringOption { value: Int!, label: String! }
  type ChannelClusteringOptions { sensitivities: [ChannelClusteringOption!]!, amounts: [ChannelClusteringOption!]! }
`;

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

async function present(
  ctx: RequestContext,
  page: PointPage,
): Promise<{ nodes: DataPointView[]; totalCount: number; hasNextPage: boolean }> {
  if (!page.nodes.length) return { ...page, nodes: [] };
  return { ...page, nodes: await ctx.tx((trx) => presentDataPoints(trx, page.nodes[0]!.workspace_id, page.nodes)) };
}

export function themesGraphql(moduleCtx: ModuleContext): ModuleGraphql {
  const Query: Record<string, Resolver> = {
    channelThemes: (_p, args, ctx) => listThemes(ctx, args),
    channelTheme: (_p, args, ctx) => getTheme(ctx, args),
    channelTopics: (_p, args, ctx) => listTopics(ctx, args),
    channelTopic: (_p, args, ctx) => getTopic(ctx, args),
    channelThemeDataPoints: async (_p, args, ctx) => present(ctx, await themeDataPoints(ctx, args)),
    channelOutliers: async (_p, args, ctx) => present(ctx, await outlierDataPoints(ctx, args)),
    channelClustering: (_p, args, ctx) => latestClustering(ctx, args),
    channelThemeSeries: (_p, args, ctx) => themeSeries(ctx, args),
    channelEmergingThemes: (_p, args, ctx) => emergingThemes(ctx, args),
    channelClusteringOptions: (_p, _a, ctx) => {
      ctx.authorize('projects:read');
      return { sensitivities: SENSITIVITIES, amounts: AMOUNTS };
    },
  };
  const Mutation: Record<string, Resolver> = {
    clusterChannel: (_p, args, ctx) => clusterChannel(ctx, moduleCtx.jobs, args),
    renameChannelTheme: (_p, args, ctx) => renameTheme(ctx, args),
    renameChannelTopic: (_p, args, ctx) => renameTopic(ctx, args),
    mergeChannelThemes: (_p, args, ctx) => mergeThemes(ctx, args),
    splitChannelTheme: (_p, args, ctx) => splitTheme(ctx, moduleCtx.events, args),
    moveChannelDataPoint: (_p, args, ctx) => moveDataPoint(ctx, args),
    summarizeChannelTheme: (_p, args, ctx) => summarizeTheme(ctx, moduleCtx.ai, args),
  };
  const ChannelDataPoint: Record<string, Resolver<DataPointView>> = {
    theme: async (d, _a, ctx) => (await ctx.tx((trx) => themeOfPoint(trx, d.workspace_id, d.id))).theme,
    isOutlier: async (d, _a, ctx) => {
      const at = await ctx.tx((trx) => themeOfPoint(trx, d.workspace_id, d.id));
      return at.placed && !at.theme;
    },
  };
  const ChannelTheme: Record<string, Resolver<ThemeRow>> = {
    channelId: (t) => t.channel_id,
    topic: (t, _a, ctx) =>
      t.topic_id
        ? ctx.tx(
            async (trx) =>
              (await trx('channel_topics').where({ id: t.topic_id }).whereNull('retired_at').first()) ?? null,
          )
        : null,
    titleIsManual: (t) => t.title_manual,
    datumCount: (t) => t.datum_count ?? 0,
    summary: (t) => themeSummaryOf(t),
    retired: (t) => t.retired_at !== null,
    mergedInto: (t) => t.merged_into,
    createdAt: (t) => t.created_at,
  };
  const ChannelTopic: Record<string, Resolver<TopicRow>> = {
    channelId: (t) => t.channel_id,
    titleIsManual: (t) => t.title_manual,
    themes: (t, _a, ctx) => ctx.tx((trx) => themesOf(trx, t.workspace_id, t.channel_id, t.id)),
    datumCount: async (t, _a, ctx) =>
      (await ctx.tx((trx) => themesOf(trx, t.workspace_id, t.channel_id, t.id))).reduce(
        (n, x) => n + (x.datum_count ?? 0),
        0,
      ),
    createdAt: (t) => t.created_at,
  };
  const ChannelClustering: Record<string, Resolver<ClusteringView>> = {
    themeCount: (c) => c.theme_count,
    outlierCount: (c) => c.outlier_count,
    pointCount: (c) => c.point_count,
    takingOver: (c) => c.taking_over === true,
    createdAt: (c) => c.created_at,
    completedAt: (c) => c.completed_at,
  };
  const ChannelEmergingTheme = {};
  const ChannelThemeSummary: Record<string, Resolver<ThemeSummary>> = {
    provenance: (s, _a, ctx) => ctx.tx((trx) => themeSummaryProvenance(trx, s)),
    // Read without the provenance, so a list of themes needs no read per theme; the provenance's label says "from N data points".
    label: (s) => (s.model ? `Written by AI (${s.model})` : LOCAL_SUMMARY_LABEL),
  };
  return {
    typeDefs: themesTypeDefs,
    resolvers: {
      Query,
      Mutation,
      ChannelDataPoint,
      ChannelTheme,
      ChannelTopic,
      ChannelClustering,
      ChannelEmergingTheme,
      ChannelThemeSummary,
    },
  };
}
