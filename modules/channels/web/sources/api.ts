/** GraphQL of source connections (modules/channels/src/connections/schema.ts). */
import type { ChannelImport } from '../api.ts';

export interface SourceSetting {
  key: string;
  label: string;
  type: 'string' | 'string[]' | 'integer' | 'date' | 'boolean';
  required: boolean;
  description: string | null;
}

export interface PluginSource {
  pluginId: string;
  pluginName: string;
  kind: string;
  label: string;
  description: string | null;
  settings: SourceSetting[];
}

export type SyncRun = ChannelImport & {
  trigger: 'UPLOAD' | 'CONNECT' | 'MANUAL' | 'SCHEDULED';
  createdAt: string;
  completedAt: string | null;
};

export interface DatasetView {
  id: string;
  source: string;
  name: string;
  pluginId: string | null;
  settings: Record<string, unknown>;
  refreshMinutes: number | null;
  lastSyncedAt: string | null;
  nextSyncAt: string | null;
  createdAt: string;
  lastImport: SyncRun | null;
}

const RUN =
  'id status trigger recordsRead recordsCreated recordsUpdated recordsSkipped recordsFailed failures { line externalId reason } error createdAt completedAt';

export const SQ = {
  sources: `query ChannelPluginSources { channelPluginSources { pluginId pluginName kind label description settings { key label type required description } } }`,
  connect: `mutation ConnectChannelSource($input: ConnectChannelSourceInput!) { connectChannelSource(input: $input) { ${RUN} } }`,
  datasets: `query ChannelDatasets($id: ID!) { channel(id: $id) { id datasets { id source name settings pluginId refreshMinutes lastSyncedAt nextSyncAt createdAt lastImport { ${RUN} } } } }`,
  history: `query ChannelDatasetImports($id: ID!) { channelDatasetImports(datasetId: $id) { ${RUN} } }`,
  sync: `mutation SyncChannelDataset($id: ID!) { syncChannelDataset(id: $id) { ${RUN} } }`,
  settings: `mutation SetChannelDatasetSettings($id: ID!, $settings: JSON!) { setChannelDatasetSettings(id: $id, settings: $settings) { id settings } }`,
  refresh: `mutation SetChannelDatasetRefresh($id: ID!, $minutes: Int) { setChannelDatasetRefresh(id: $id, refreshMinutes: $minutes) { id refreshMinutes nextSyncAt } }`,
};

/** Refresh choices people pick from (minutes; null: only on demand). */
export const REFRESH_CHOICES: Array<{ value: string; label: string }> = [
  { value: '', label: 'Only when I sync it' },
  { value: '60', label: 'Every hour' },
  { value: '360', label: 'Every 6 hours' },
  { value: '1440', label: 'Every day' },
  { value: '10080', label: 'Every week' },
];

export const TRIGGER_LABEL: Record<SyncRun['trigger'], string> = {
  UPLOAD: 'File upload',
  CONNECT: 'First import',
  MANUAL: 'Sync now',
  SCHEDULED: 'Scheduled refresh',
};
