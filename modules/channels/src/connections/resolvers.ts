import {
  pluginImportSources,
  type ExtensionsServices,
  type ModuleContext,
  type ModuleGraphql,
  type RequestContext,
} from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import type { DatasetRow } from '../datasets/datasets.ts';
import { IMPORT_COLUMNS } from '../imports/records.ts';
import { connectSource, datasetRuns, setRefresh, setSettings, syncNow } from './connections.ts';
import { connectionsTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;

/** Only the sources of plugins this workspace installed can be connected. */
async function installedSources(ctx: RequestContext, extensions: ExtensionsServices) {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const installed = new Set(
    (await ctx.tx((trx) =>
      trx('plugin_installations').where({ workspace_id: caller.workspaceId }).pluck('plugin_id'),
    )) as string[],
  );
  return pluginImportSources(extensions.host)
    .filter((s) => installed.has(s.pluginId))
    .map((s) => ({
      ...s,
      settings: s.fields.map((f) => ({ ...f, required: f.required ?? false, description: f.description ?? null })),
    }));
}

export function connectionsGraphql(
  extensions: ExtensionsServices,
  { jobs, events }: Pick<ModuleContext, 'jobs' | 'events'>,
): ModuleGraphql {
  return {
    typeDefs: connectionsTypeDefs,
    resolvers: {
      Query: {
        channelPluginSources: (_p: unknown, _a: Args, ctx: RequestContext) => installedSources(ctx, extensions),
        channelDatasetImports: (_p: unknown, args: Args, ctx: RequestContext) => datasetRuns(ctx, args),
      },
      Mutation: {
        connectChannelSource: (_p: unknown, args: Args, ctx: RequestContext) =>
          connectSource(ctx, extensions, jobs, events, args),
        syncChannelDataset: (_p: unknown, args: Args, ctx: RequestContext) => syncNow(ctx, jobs, args),
        setChannelDatasetRefresh: (_p: unknown, args: Args, ctx: RequestContext) => setRefresh(ctx, args),
        setChannelDatasetSettings: (_p: unknown, args: Args, ctx: RequestContext) => setSettings(ctx, extensions, args),
      },
      ChannelDataset: {
        pluginId: (d: DatasetRow) => d.plugin_id ?? null,
        refreshMinutes: (d: DatasetRow) => d.refresh_minutes ?? null,
        lastSyncedAt: (d: DatasetRow) => d.last_synced_at ?? null,
        nextSyncAt: (d: DatasetRow) => d.next_sync_at ?? null,
        lastImport: (d: DatasetRow, _a: Args, ctx: RequestContext) =>
          ctx.tx(
            async (trx) =>
              (await trx('channel_imports')
                .where({ workspace_id: d.workspace_id, dataset_id: d.id })
                .orderBy([
                  { column: 'created_at', order: 'desc' },
                  { column: 'id', order: 'desc' },
                ])
                .first(IMPORT_COLUMNS)) ?? null,
          ),
      },
      ChannelImport: {
        trigger: (i: { trigger?: string }) => i.trigger ?? 'UPLOAD',
      },
    },
  };
}
