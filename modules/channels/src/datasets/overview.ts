import type { Knex } from 'knex';
import { countedPerDataset } from '../datapoints/counts.ts';
import { IMPORT_COLUMNS, type ChannelImportRow } from '../imports/records.ts';

export interface DatasetOverviewRow {
  id: string;
  workspace_id: string;
  source: string;
  name: string;
  settings: unknown;
  created_at: Date;
  /** A plugin source's connection: which plugin, how often it refreshes, when it last and next syncs. */
  plugin_id: string | null;
  refresh_minutes: number | null;
  last_synced_at: Date | null;
  next_sync_at: Date | null;
  point_count: number;
  last_import: Omit<ChannelImportRow, 'file'> | null;
}

/**
 * A channel's datasets, newest first, each with how many data points it holds and its latest
 * import (what the channel page lists). Three queries whatever the number of datasets.
 */
export async function channelDatasets(
  trx: Knex.Transaction,
  workspaceId: string,
  channelId: string,
): Promise<DatasetOverviewRow[]> {
  const datasets = (await trx('channel_datasets')
    .where({ workspace_id: workspaceId, channel_id: channelId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(1000)
    .select(
      'id',
      'workspace_id',
      'source',
      'name',
      'settings',
      'created_at',
      'plugin_id',
      'refresh_minutes',
      'last_synced_at',
      'next_sync_at',
    )) as Array<Omit<DatasetOverviewRow, 'point_count' | 'last_import'>>;
  if (!datasets.length) return [];
  const ids = datasets.map((d) => d.id);
  const counts = await datasetPointCounts(trx, workspaceId, ids);
  const imports = (await trx('channel_imports')
    .distinctOn('dataset_id')
    .where({ workspace_id: workspaceId, channel_id: channelId })
    .whereIn('dataset_id', ids)
    .orderBy([{ column: 'dataset_id' }, { column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select(IMPORT_COLUMNS)) as Array<Omit<ChannelImportRow, 'file'>>;
  const lastImport = new Map(imports.map((i) => [i.dataset_id, i]));
  return datasets.map((d) => ({ ...d, point_count: counts.get(d.id) ?? 0, last_import: lastImport.get(d.id) ?? null }));
}

/** Data points per dataset, from the daily counters. */
export const datasetPointCounts = countedPerDataset;
