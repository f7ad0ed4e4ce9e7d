import type { Knex } from 'knex';

/**
 * Source connections (001 §3.4): a dataset whose source is a plugin's import source is a
 * connection, listed again every `refresh_minutes` from its saved cursor (only what is new) and
 * on "sync now". Each import run says what set it off, so a dataset's runs are its sync history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_datasets', (t) => {
    // The plugin whose source this is; null for Fieldbook's own sources (CSV, API).
    t.text('plugin_id');
    // Minutes between refreshes; null: only when someone syncs it.
    t.integer('refresh_minutes');
    t.timestamp('next_sync_at', { useTz: true });
    t.timestamp('last_synced_at', { useTz: true });
    // The start of the first import period (001 §3.4: firstImportPeriodDays before connecting).
    t.timestamp('since', { useTz: true });
  });
  await knex.raw(
    'alter table channel_datasets add constraint channel_datasets_refresh_check check (refresh_minutes is null or refresh_minutes between 15 and 10080)',
  );
  // The refresh sweep reads due connections of every workspace.
  await knex.raw(
    'create index channel_datasets_due on channel_datasets (next_sync_at) where plugin_id is not null and refresh_minutes is not null',
  );
  await knex.schema.alterTable('channel_imports', (t) => {
    t.text('trigger').notNullable().defaultTo('UPLOAD');
    t.index(['workspace_id', 'dataset_id', 'created_at']);
  });
  await knex.raw(
    "alter table channel_imports add constraint channel_imports_trigger_check check (trigger in ('UPLOAD','CONNECT','MANUAL','SCHEDULED'))",
  );
  // One run at a time per dataset: a refresh and a "sync now" at once would list the same page twice.
  await knex.raw(
    "create unique index channel_imports_one_active on channel_imports (dataset_id) where status in ('QUEUED','RUNNING')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists channel_imports_one_active');
  await knex.raw('alter table channel_imports drop constraint if exists channel_imports_trigger_check');
  await knex.schema.alterTable('channel_imports', (t) => {
    t.dropIndex(['workspace_id', 'dataset_id', 'created_at']);
    t.dropColumn('trigger');
  });
  await knex.raw('drop index if exists channel_datasets_due');
  await knex.raw('alter table channel_datasets drop constraint if exists channel_datasets_refresh_check');
  await knex.schema.alterTable('channel_datasets', (t) => {
    for (const c of ['plugin_id', 'refresh_minutes', 'next_sync_at', 'last_synced_at', 'since']) t.dropColumn(c);
  });
}
