import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Themes and topics of a channel (000 §2, 002 §9). A clustering is one versioned run over a
 * channel's data points with its parameters, progress and the offline text model later points are
 * placed with. Themes keep their identity across runs (a run matches its groups to the themes
 * before it), so a manual title and whatever cites a theme survive; a theme no run matches any
 * more is retired, not deleted. Each data point has at most one membership row: its theme, or
 * none when it is an outlier; `manual` marks a person's move, which later runs keep.
 */
export async function up(knex: Knex): Promise<void> {
  const check = (table: string, name: string, sql: string) =>
    knex.raw(`alter table ?? add constraint ?? check (${sql})`, [table, name]);

  await knex.schema.createTable('channel_clusterings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('status').notNullable().defaultTo('QUEUED');
    t.specificType('progress', 'real').notNullable().defaultTo(0);
    t.integer('sensitivity').notNullable();
    // Percent of items (002 §9), or null for the fallback count.
    t.integer('amount');
    // 'local' (the shipped text model) or the embedding model's name.
    t.text('representation');
    // The local text model (term -> idf) points arriving later are represented with.
    t.jsonb('model');
    t.integer('theme_count');
    t.integer('outlier_count');
    t.integer('point_count');
    t.text('error');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.unique(['channel_id', 'version']);
    t.index(['workspace_id', 'channel_id', 'version']);
  });
  await check(
    'channel_clusterings',
    'channel_clusterings_status_check',
    "status in ('QUEUED','RUNNING','COMPLETED','FAILED')",
  );
  await check('channel_clusterings', 'channel_clusterings_sensitivity_check', 'sensitivity between 1 and 5');
  await check(
    'channel_clusterings',
    'channel_clusterings_amount_check',
    'amount is null or amount in (3, 5, 10, 15, 25)',
  );
  await enableTenantRls(knex, 'channel_clusterings');

  await knex.schema.createTable('channel_topics', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.boolean('title_manual').notNullable().defaultTo(false);
    t.integer('version').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('retired_at', { useTz: true });
    t.index(['workspace_id', 'channel_id', 'retired_at']);
  });
  await check('channel_topics', 'channel_topics_title_check', 'char_length(title) between 1 and 300');
  await enableTenantRls(knex, 'channel_topics');

  await knex.schema.createTable('channel_themes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.uuid('topic_id').references('channel_topics.id').onDelete('SET NULL');
    t.text('title').notNullable();
    t.boolean('title_manual').notNullable().defaultTo(false);
    // Its most distinctive phrases, best first (what an offline title is made of).
    t.jsonb('phrases').notNullable().defaultTo('[]');
    // Where the theme sits: { kind: 'terms', terms } or { kind: 'embedding', model, vector }.
    t.jsonb('centroid');
    t.specificType('min_similarity', 'real').notNullable().defaultTo(0);
    t.text('summary');
    // The model that wrote the summary, or null for an extractive one.
    t.text('summary_model');
    t.timestamp('summarized_at', { useTz: true });
    // The clustering version that last placed it.
    t.integer('version').notNullable();
    t.uuid('merged_into').references('channel_themes.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('retired_at', { useTz: true });
    t.index(['workspace_id', 'channel_id', 'retired_at']);
  });
  await check('channel_themes', 'channel_themes_title_check', 'char_length(title) between 1 and 300');
  await enableTenantRls(knex, 'channel_themes');

  await knex.schema.createTable('channel_theme_members', (t) => {
    t.uuid('datapoint_id').primary().references('channel_datapoints.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    // Null: an outlier, placed in no theme.
    t.uuid('theme_id').references('channel_themes.id').onDelete('SET NULL');
    t.boolean('manual').notNullable().defaultTo(false);
    t.specificType('similarity', 'real');
    t.timestamp('placed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'theme_id']);
    t.index(['workspace_id', 'channel_id', 'theme_id']);
  });
  await enableTenantRls(knex, 'channel_theme_members');

  // Embeddings of data points from the configured model, so a new clustering does not embed again.
  await knex.schema.createTable('channel_datapoint_embeddings', (t) => {
    t.uuid('datapoint_id').notNullable().references('channel_datapoints.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('model').notNullable();
    t.specificType('vector', 'real[]').notNullable();
    t.primary(['datapoint_id', 'model']);
  });
  await enableTenantRls(knex, 'channel_datapoint_embeddings');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'channel_datapoint_embeddings',
    'channel_theme_members',
    'channel_themes',
    'channel_topics',
    'channel_clusterings',
  ])
    await knex.schema.dropTableIfExists(table);
}
