import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Channels of imported customer feedback (000 §2, 001 §3.4). A channel holds datasets (one per
 * import or source connection); a dataset holds data points, each unique by its source's external
 * id, so importing the same record again updates it. Channel fields are the custom fields of a
 * channel's data points. An import run records one pass of a source over a dataset: its cursor,
 * counts and failed records, committed with each batch so a crashed run resumes where it stopped.
 */
export async function up(knex: Knex): Promise<void> {
  const check = (table: string, name: string, sql: string) =>
    knex.raw(`alter table ?? add constraint ?? check (${sql})`, [table, name]);

  await knex.schema.createTable('channels', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true });
    t.uuid('deleted_by').references('users.id').onDelete('SET NULL');
    t.index(['workspace_id', 'deleted_at', 'name']);
  });
  await check('channels', 'channels_name_check', 'char_length(name) between 1 and 200');
  await check('channels', 'channels_description_check', 'description is null or char_length(description) <= 2000');
  await enableTenantRls(knex, 'channels');

  await knex.schema.createTable('channel_datasets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.text('source').notNullable();
    t.text('name').notNullable();
    t.jsonb('settings').notNullable().defaultTo('{}');
    // Where the source's next incremental listing starts (null: the first import period).
    t.jsonb('cursor');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'channel_id', 'created_at']);
  });
  await check('channel_datasets', 'channel_datasets_name_check', 'char_length(name) between 1 and 300');
  await enableTenantRls(knex, 'channel_datasets');

  await knex.schema.createTable('channel_fields', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.text('label').notNullable();
    t.text('type').notNullable();
    // SELECT options: [{ id, label }].
    t.jsonb('options').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index channel_fields_label_unique on channel_fields (channel_id, lower(label))');
  await check('channel_fields', 'channel_fields_label_check', 'char_length(label) between 1 and 250');
  await check(
    'channel_fields',
    'channel_fields_type_check',
    "type in ('ARR','BOOLEAN','CSAT','DATETIME','EMAIL','NPS','NUMBER','PERSON','PHONE','RATING','SELECT','TEXT','URL')",
  );
  await enableTenantRls(knex, 'channel_fields');

  await knex.schema.createTable('channel_datapoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.uuid('dataset_id').notNullable().references('channel_datasets.id').onDelete('CASCADE');
    t.text('external_id').notNullable();
    t.text('external_url');
    t.text('import_url');
    t.text('source').notNullable();
    t.text('content').notNullable();
    // When the feedback was given (the record's own time), not when it was imported.
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.jsonb('raw');
    t.uuid('person_id').references('people.id').onDelete('SET NULL');
    t.text('sentiment');
    // Field id -> string or boolean (000 §3).
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['dataset_id', 'external_id']);
    t.index(['workspace_id', 'channel_id', 'created_at', 'id']);
  });
  await check(
    'channel_datapoints',
    'channel_datapoints_sentiment_check',
    "sentiment is null or sentiment in ('positive','negative','mixed')",
  );
  await check(
    'channel_datapoints',
    'channel_datapoints_external_id_check',
    'char_length(external_id) between 1 and 500',
  );
  await check('channel_datapoints', 'channel_datapoints_content_check', 'char_length(content) <= 20000');
  await enableTenantRls(knex, 'channel_datapoints');

  await knex.schema.createTable('channel_imports', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.uuid('dataset_id').notNullable().references('channel_datasets.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('QUEUED');
    // Where this run's listing stands: committed with each batch, read again after a crash.
    t.jsonb('cursor');
    t.integer('records_read').notNullable().defaultTo(0);
    t.integer('records_created').notNullable().defaultTo(0);
    t.integer('records_updated').notNullable().defaultTo(0);
    t.integer('records_skipped').notNullable().defaultTo(0);
    t.integer('records_failed').notNullable().defaultTo(0);
    // The first failures with their line or external id and reason.
    t.jsonb('failures').notNullable().defaultTo('[]');
    t.text('error');
    // The uploaded file of a file source (a CSV), dropped once the run is done.
    t.text('file');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.index(['workspace_id', 'channel_id', 'created_at']);
  });
  await check('channel_imports', 'channel_imports_status_check', "status in ('QUEUED','RUNNING','COMPLETED','FAILED')");
  await enableTenantRls(knex, 'channel_imports');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['channel_imports', 'channel_datapoints', 'channel_fields', 'channel_datasets', 'channels'])
    await knex.schema.dropTableIfExists(table);
}
