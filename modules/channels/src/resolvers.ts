import { z } from 'zod';
import { validate, type ModuleContext, type ModuleGraphql, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from './caller.ts';
import {
  channelFor,
  createChannel,
  deleteChannel,
  idSchema,
  listChannels,
  restoreChannel,
  updateChannel,
  type ChannelRow,
} from './channels/channels.ts';
import { channelDatasets } from './datasets/overview.ts';
import { presentDataPoints, type DataPointView } from './datapoints/present.ts';
import { channelStats, dataPointSeries, getDataPoint, listDataPoints } from './datapoints/read.ts';
import { getImport, listImports, type ChannelImportView } from './imports/imports.ts';
import { BUILT_IN_SOURCES } from './sources/index.ts';
import { channelsTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

interface ChannelView extends ChannelRow {
  stats: { count: number; weekly: number[] };
}

async function withStats(ctx: RequestContext, rows: ChannelRow[]): Promise<ChannelView[]> {
  if (!rows.length) return [];
  const stats = await ctx.tx((trx) =>
    channelStats(
      trx,
      rows[0]!.workspace_id,
      rows.map((r) => r.id),
    ),
  );
  return rows.map((r) => ({ ...r, stats: stats.get(r.id)! }));
}

async function present(ctx: RequestContext, rows: Parameters<typeof presentDataPoints>[2]): Promise<DataPointView[]> {
  if (!rows.length) return [];
  return ctx.tx((trx) => presentDataPoints(trx, rows[0]!.workspace_id, rows));
}

export function channelsGraphql(moduleCtx: ModuleContext): ModuleGraphql {
  const limits = () => moduleCtx.config.channels;
  const Query: Record<string, Resolver> = {
    channels: async (_p, args, ctx) => withStats(ctx, await listChannels(ctx, args)),
    // The channel with its counts, and a page with its people and fields, each in one transaction.
    channel: (_p, args, ctx) => {
      const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
      const { id } = validate(z.object({ id: idSchema() }), args);
      return ctx.tx(async (trx): Promise<ChannelView> => {
        const row = await channelFor(trx, caller, id);
        return { ...row, stats: (await channelStats(trx, row.workspace_id, [row.id])).get(row.id)! };
      });
    },
    channelDataPoints: (_p, args, ctx) =>
      listDataPoints(ctx, args, (trx, rows) =>
        rows.length ? presentDataPoints(trx, rows[0]!.workspace_id, rows) : Promise.resolve([]),
      ),
    channelDataPoint: async (_p, args, ctx) => (await present(ctx, [await getDataPoint(ctx, args)]))[0],
    channelDataPointSeries: (_p, args, ctx) => dataPointSeries(ctx, args),
    channelImport: (_p, args, ctx) => getImport(ctx, args),
    channelImports: (_p, args, ctx) => listImports(ctx, args),
    channelSources: (_p, _args, ctx) => {
      ctx.authorize('projects:read');
      return Object.values(BUILT_IN_SOURCES).map((s) => ({
        kind: s.kind,
        label: s.label,
        settings: s.settings.map((x) => ({ ...x, required: x.required ?? false })),
      }));
    },
  };
  const Mutation: Record<string, Resolver> = {
    createChannel: async (_p, args, ctx) =>
      (await withStats(ctx, [await createChannel(ctx, limits().maximumChannels, args)]))[0],
    updateChannel: async (_p, args, ctx) => (await withStats(ctx, [await updateChannel(ctx, args)]))[0],
    deleteChannel: (_p, args, ctx) => deleteChannel(ctx, args),
    restoreChannel: async (_p, args, ctx) =>
      (await withStats(ctx, [await restoreChannel(ctx, limits().maximumChannels, args)]))[0],
  };
  const Channel: Record<string, Resolver<ChannelView>> = {
    dataPointCount: (c) => c.stats.count,
    weeklyDataPoints: (c) => c.stats.weekly,
    datasets: (c, _a, ctx) => ctx.tx((trx) => channelDatasets(trx, c.workspace_id, c.id)),
    fields: (c, _a, ctx) =>
      ctx.tx((trx) =>
        trx('channel_fields')
          .where({ workspace_id: c.workspace_id, channel_id: c.id })
          .orderBy('label')
          .select('id', 'label', 'type', 'options'),
      ),
    createdAt: (c) => c.created_at,
    updatedAt: (c) => c.updated_at,
    deletedAt: (c) => c.deleted_at,
  };
  const ChannelDataset: Record<string, Resolver<{ created_at: Date }>> = { createdAt: (d) => d.created_at };
  const ChannelDataPoint: Record<string, Resolver<DataPointView>> = {
    channelId: (d) => d.channel_id,
    datasetId: (d) => d.dataset_id,
    externalId: (d) => d.external_id,
    externalUrl: (d) => d.external_url,
    importUrl: (d) => d.import_url,
    createdAt: (d) => d.created_at,
    person: (d) => d.personRef,
    fields: (d) => d.fieldValues,
    importedAt: (d) => d.imported_at,
    updatedAt: (d) => d.updated_at,
  };
  const ChannelImport: Record<string, Resolver<ChannelImportView>> = {
    channelId: (i) => i.channel_id,
    datasetId: (i) => i.dataset_id,
    recordsRead: (i) => i.records_read,
    recordsCreated: (i) => i.records_created,
    recordsUpdated: (i) => i.records_updated,
    recordsSkipped: (i) => i.records_skipped,
    recordsFailed: (i) => i.records_failed,
    createdAt: (i) => i.created_at,
    completedAt: (i) => i.completed_at,
  };
  return {
    typeDefs: channelsTypeDefs,
    resolvers: { Query, Mutation, Channel, ChannelDataset, ChannelDataPoint, ChannelImport },
  };
}
