import type { Knex } from 'knex';
import { z } from 'zod';
import {
  AppError,
  checkImportSourceSettings,
  notFound,
  validate,
  type EventBus,
  type ExtensionsServices,
  type JobQueue,
  type RequestContext,
} from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { createDataset, type DatasetRow } from '../datasets/datasets.ts';
import { IMPORT_COLUMNS, CHANNEL_IMPORT_QUEUE, type ChannelImportJob } from '../imports/records.ts';
import type { ChannelImportView } from '../imports/imports.ts';
import { DEFAULT_FIRST_IMPORT_DAYS } from '../sources/plugin.ts';
import type { Json, SourceKind } from '../sources/contract.ts';

/** Refresh intervals a connection may have: a quarter of an hour to a week. */
export const REFRESH_MINUTES = { min: 15, max: 7 * 24 * 60 } as const;
export const FIRST_IMPORT_DAYS = { min: 1, max: 3650 } as const;

export type ImportTrigger = 'UPLOAD' | 'CONNECT' | 'MANUAL' | 'SCHEDULED';

const settingsSchema = z.record(z.string(), z.json(), { error: 'settings must be an object.' });

const connectSchema = z.object({
  input: z.object({
    channelId: idSchema('channelId'),
    pluginId: z
      .string()
      .min(1, 'pluginId names the plugin whose source to connect.')
      .max(100, 'pluginId can be at most 100 characters long.'),
    kind: z.string().min(1, 'kind names the source to connect.').max(100, 'kind can be at most 100 characters long.'),
    name: z.string().trim().max(300, 'A dataset name can be at most 300 characters long.').nullish(),
    settings: settingsSchema.nullish(),
    refreshMinutes: z
      .number()
      .int('refreshMinutes must be a whole number of minutes.')
      .min(REFRESH_MINUTES.min, `refreshMinutes must be at least ${REFRESH_MINUTES.min}.`)
      .max(REFRESH_MINUTES.max, `refreshMinutes can be at most ${REFRESH_MINUTES.max} (a week).`)
      .nullish(),
    firstImportPeriodDays: z
      .number()
      .int('firstImportPeriodDays must be a whole number of days.')
      .min(FIRST_IMPORT_DAYS.min, `firstImportPeriodDays must be at least ${FIRST_IMPORT_DAYS.min}.`)
      .max(FIRST_IMPORT_DAYS.max, `firstImportPeriodDays can be at most ${FIRST_IMPORT_DAYS.max}.`)
      .nullish(),
  }),
});

/** Starts a run of a dataset and queues its job, in the caller's transaction. */
export async function startRun(
  trx: Knex.Transaction,
  jobs: JobQueue,
  dataset: Pick<DatasetRow, 'id' | 'workspace_id' | 'channel_id'>,
  userId: string,
  trigger: ImportTrigger,
): Promise<ChannelImportView> {
  const [run] = (await trx('channel_imports')
    .insert({
      workspace_id: dataset.workspace_id,
      channel_id: dataset.channel_id,
      dataset_id: dataset.id,
      created_by: userId,
      trigger,
    })
    .returning(IMPORT_COLUMNS)) as ChannelImportView[];
  const job: ChannelImportJob = { importId: run!.id, workspaceId: dataset.workspace_id, userId };
  await jobs.send(CHANNEL_IMPORT_QUEUE, job, { trx });
  return run!;
}

/** The run of a dataset that is queued or running, if any (there is at most one). */
export async function activeRun(trx: Knex.Transaction, datasetId: string): Promise<ChannelImportView | null> {
  return (
    ((await trx('channel_imports')
      .where({ dataset_id: datasetId })
      .whereIn('status', ['QUEUED', 'RUNNING'])
      .first(IMPORT_COLUMNS)) as ChannelImportView | undefined) ?? null
  );
}

/**
 * Connects a plugin's import source to a channel: a dataset with the source's settings, whose
 * first run (the first import period) starts at once and which refreshes every `refreshMinutes`.
 */
export async function connectSource(
  ctx: RequestContext,
  extensions: ExtensionsServices,
  jobs: JobQueue,
  events: EventBus,
  args: unknown,
): Promise<ChannelImportView> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.import);
  const { input } = validate(connectSchema, args);
  const plugin = extensions.host.catalog.ready(input.pluginId);
  if (!plugin)
    throw new AppError('NOT_FOUND', 'That plugin is not available on this installation.', { field: 'input.pluginId' });
  const settings = checkImportSourceSettings(extensions.host, input.pluginId, input.kind, input.settings ?? {});
  const label = plugin.definition.server.importSources?.find((s) => s.kind === input.kind)?.label ?? input.kind;
  const days = input.firstImportPeriodDays ?? DEFAULT_FIRST_IMPORT_DAYS;
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    const installed = await trx('plugin_installations')
      .where({ workspace_id: caller.workspaceId, plugin_id: plugin.id })
      .first('id');
    if (!installed)
      throw new AppError(
        'INVALID_OPERATION',
        `${plugin.manifest.name} is not installed in this workspace; a workspace admin installs it at Settings → Extensions.`,
        { field: 'input.pluginId' },
      );
    const dataset = await createDataset(trx, events, {
      workspaceId: caller.workspaceId,
      channelId: input.channelId,
      userId: caller.userId,
      source: input.kind as SourceKind,
      name: input.name || label,
      settings: settings as { [key: string]: Json },
    });
    const refresh = input.refreshMinutes ?? null;
    await trx('channel_datasets')
      .where({ id: dataset.id })
      .update({
        plugin_id: plugin.id,
        refresh_minutes: refresh,
        since: trx.raw(`now() - make_interval(days => ?)`, [days]),
        next_sync_at: refresh === null ? null : trx.raw(`now() + make_interval(mins => ?)`, [refresh]),
      });
    return startRun(trx, jobs, dataset, caller.userId, 'CONNECT');
  });
}

/** A connection of a live channel of the caller's workspace, locked for the caller's transaction. */
async function connectionFor(trx: Knex.Transaction, workspaceId: string, id: string): Promise<DatasetRow> {
  const dataset = (await trx('channel_datasets').where({ id, workspace_id: workspaceId }).forUpdate().first()) as
    | DatasetRow
    | undefined;
  if (!dataset) throw notFound('That dataset');
  await channelFor(trx, { workspaceId }, dataset.channel_id).catch(() => {
    throw notFound('That dataset');
  });
  return dataset;
}

/** "Sync now": a run of the connection from its cursor, or the one already queued or running. */
export async function syncNow(ctx: RequestContext, jobs: JobQueue, args: unknown): Promise<ChannelImportView> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.import);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const dataset = await connectionFor(trx, caller.workspaceId, id);
    if (!dataset.plugin_id)
      throw new AppError(
        'INVALID_OPERATION',
        `A ${dataset.source} dataset is not a source connection and cannot be synced; import the file again instead.`,
        { field: 'id' },
      );
    return (await activeRun(trx, dataset.id)) ?? startRun(trx, jobs, dataset, caller.userId, 'MANUAL');
  });
}

/** Changes how often a connection refreshes (null: only when someone syncs it). */
export async function setRefresh(ctx: RequestContext, args: unknown): Promise<DatasetRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.import);
  const { id, refreshMinutes } = validate(
    z.object({ id: idSchema(), refreshMinutes: connectSchema.shape.input.shape.refreshMinutes }),
    args,
  );
  return ctx.tx(async (trx) => {
    const dataset = await connectionFor(trx, caller.workspaceId, id);
    if (!dataset.plugin_id)
      throw new AppError(
        'INVALID_OPERATION',
        `A ${dataset.source} dataset is not a source connection and does not refresh.`,
        { field: 'id' },
      );
    const refresh = refreshMinutes ?? null;
    const [row] = (await trx('channel_datasets')
      .where({ id })
      .update({
        refresh_minutes: refresh,
        next_sync_at: refresh === null ? null : trx.raw(`now() + make_interval(mins => ?)`, [refresh]),
        updated_at: trx.fn.now(),
      })
      .returning('*')) as DatasetRow[];
    return row!;
  });
}

/**
 * Changes a connection's settings (its payload fields). What the last syncs read was chosen with
 * the old ones, and a source's cursor may hold what they resolved (a team's id), so the cursor is
 * dropped: the next sync reads again from the start of the first import period, updating the data
 * points already in rather than adding them twice.
 */
export async function setSettings(
  ctx: RequestContext,
  extensions: ExtensionsServices,
  args: unknown,
): Promise<DatasetRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.import);
  const { id, settings } = validate(z.object({ id: idSchema(), settings: settingsSchema }), args);
  return ctx.tx(async (trx) => {
    const dataset = await connectionFor(trx, caller.workspaceId, id);
    if (!dataset.plugin_id)
      throw new AppError(
        'INVALID_OPERATION',
        `A ${dataset.source} dataset is not a source connection and has no settings to change.`,
        { field: 'id' },
      );
    const checked = checkImportSourceSettings(extensions.host, dataset.plugin_id, dataset.source, settings);
    if (await activeRun(trx, dataset.id))
      throw new AppError(
        'INVALID_OPERATION',
        'A sync of this source is under way; change its settings when it has finished.',
        { field: 'id' },
      );
    const [row] = (await trx('channel_datasets')
      .where({ id })
      .update({ settings: JSON.stringify(checked), cursor: null, updated_at: trx.fn.now() })
      .returning('*')) as DatasetRow[];
    return row!;
  });
}

/** A dataset's sync history: its runs, newest first, with counts and errors. */
export async function datasetRuns(ctx: RequestContext, args: unknown): Promise<ChannelImportView[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { datasetId, first } = validate(
    z.object({
      datasetId: idSchema('datasetId'),
      first: z.number().int().min(1, 'first must be at least 1.').max(100, 'first can be at most 100.').nullish(),
    }),
    args,
  );
  return ctx.tx(async (trx) => {
    const dataset = (await trx('channel_datasets')
      .where({ id: datasetId, workspace_id: caller.workspaceId })
      .first('channel_id')) as { channel_id: string } | undefined;
    if (!dataset) throw notFound('That dataset');
    await channelFor(trx, caller, dataset.channel_id).catch(() => {
      throw notFound('That dataset');
    });
    return (await trx('channel_imports')
      .where({ workspace_id: caller.workspaceId, dataset_id: datasetId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(first ?? 20)
      .select(IMPORT_COLUMNS)) as ChannelImportView[];
  });
}
