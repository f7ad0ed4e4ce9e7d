import type { Knex } from 'knex';
import type { EventBus } from '@fieldbook/core';
import type { Json, SourceKind } from '../sources/contract.ts';

export interface DatasetRow {
  id: string;
  workspace_id: string;
  channel_id: string;
  source: SourceKind;
  name: string;
  settings: { [key: string]: Json };
  cursor: Json;
  /** Source connections (a plugin's source): see migrations/0057_channel_source_connections.ts. */
  plugin_id?: string | null;
  refresh_minutes?: number | null;
  next_sync_at?: Date | null;
  last_synced_at?: Date | null;
  since?: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The automation trigger of a new dataset (001 §3.1: context channel and dataset, configured by channel.id). */
export const DATASET_CREATED = 'dataset:created';

/**
 * Creates a dataset and publishes `dataset:created` in the same transaction: subscribers hear of
 * it if and only if it exists.
 */
export async function createDataset(
  trx: Knex.Transaction,
  events: EventBus,
  fields: {
    workspaceId: string;
    channelId: string;
    userId: string | null;
    source: SourceKind;
    name: string;
    settings: { [key: string]: Json };
  },
): Promise<DatasetRow> {
  const [row] = (await trx('channel_datasets')
    .insert({
      workspace_id: fields.workspaceId,
      channel_id: fields.channelId,
      source: fields.source,
      name: [...fields.name].slice(0, 300).join(''),
      settings: JSON.stringify(fields.settings),
      created_by: fields.userId,
    })
    .returning('*')) as DatasetRow[];
  const channel = (await trx('channels').where({ id: fields.channelId }).first('name')) as { name: string };
  // The payload of the trigger catalog (core/src/events/catalog.ts): its context objects, titled.
  await events.publish(
    DATASET_CREATED,
    fields.workspaceId,
    { channel: { id: fields.channelId, title: channel.name }, dataset: { id: row!.id, title: row!.name } },
    trx,
  );
  return row!;
}

/** The channel's one API dataset, created with the first push. */
export async function apiDatasetFor(
  trx: Knex.Transaction,
  events: EventBus,
  fields: { workspaceId: string; channelId: string; userId: string | null },
): Promise<DatasetRow> {
  // Two first pushes at once must not make two API datasets.
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channel-api-dataset:${fields.channelId}`]);
  const found = (await trx('channel_datasets')
    .where({ workspace_id: fields.workspaceId, channel_id: fields.channelId, source: 'API' })
    .first()) as DatasetRow | undefined;
  return found ?? createDataset(trx, events, { ...fields, source: 'API', name: 'API', settings: {} });
}
