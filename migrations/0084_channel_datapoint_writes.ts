import type { Knex } from 'knex';

/**
 * A data point's workspace, channel and dataset are checked by one foreign key instead of three.
 * Each foreign key is a lookup for every row written, and an import writes millions of rows: one
 * composite key to the dataset (which names its channel and workspace) costs one lookup and says
 * more, since a data point can no longer name a dataset of another channel or workspace. Deleting
 * a workspace or channel still removes its data points, through their datasets.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'alter table channel_datasets add constraint channel_datasets_id_channel_workspace_unique unique (id, channel_id, workspace_id)',
  );
  // Added without reading the table, then checked over the rows already there.
  await knex.raw(`alter table channel_datapoints
    add constraint channel_datapoints_dataset_foreign foreign key (dataset_id, channel_id, workspace_id)
      references channel_datasets (id, channel_id, workspace_id) on delete cascade not valid`);
  await knex.raw('alter table channel_datapoints validate constraint channel_datapoints_dataset_foreign');
  await knex.raw(`alter table channel_datapoints
    drop constraint channel_datapoints_workspace_id_foreign,
    drop constraint channel_datapoints_channel_id_foreign,
    drop constraint channel_datapoints_dataset_id_foreign`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table channel_datapoints
    add constraint channel_datapoints_workspace_id_foreign foreign key (workspace_id) references workspaces (id) on delete cascade,
    add constraint channel_datapoints_channel_id_foreign foreign key (channel_id) references channels (id) on delete cascade,
    add constraint channel_datapoints_dataset_id_foreign foreign key (dataset_id) references channel_datasets (id) on delete cascade`);
  await knex.raw('alter table channel_datapoints drop constraint if exists channel_datapoints_dataset_foreign');
  await knex.raw('alter table channel_datasets drop constraint if exists channel_datasets_id_channel_workspace_unique');
}
