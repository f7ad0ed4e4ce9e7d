import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * AI you can check: per-workspace settings (on or off, features, automation modes, monthly token
 * cap), tokens used per month, the provenance of every AI-made object, summaries of notes and
 * insights, and embeddings (kept so they can be rebuilt when the embedding model changes).
 */
export async function up(knex: Knex): Promise<void> {
  const workspace = (t: Knex.CreateTableBuilder) =>
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');

  await knex.schema.createTable('ai_settings', (t) => {
    workspace(t);
    t.primary(['workspace_id']);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.jsonb('features').notNullable().defaultTo(knex.raw(`'{"summaries":true,"ask":true,"translation":true}'::jsonb`));
    t.jsonb('modes')
      .notNullable()
      .defaultTo(
        knex.raw(`'{"summarize":"On","highlights":"Suggest","tags":"On","redact":"On","insights":"On"}'::jsonb`),
      );
    t.bigInteger('monthly_token_cap');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await enableTenantRls(knex, 'ai_settings');

  await knex.schema.createTable('ai_usage', (t) => {
    workspace(t);
    t.date('month').notNullable();
    t.bigInteger('prompt_tokens').notNullable().defaultTo(0);
    t.bigInteger('completion_tokens').notNullable().defaultTo(0);
    t.integer('calls').notNullable().defaultTo(0);
    t.primary(['workspace_id', 'month']);
  });
  await enableTenantRls(knex, 'ai_usage');

  await knex.schema.createTable('ai_provenance', (t) => {
    workspace(t);
    t.string('object_type', 40).notNullable();
    t.uuid('object_id').notNullable();
    t.text('model').notNullable();
    t.text('endpoint_host');
    t.text('prompt_version').notNullable();
    t.specificType('input_ids', 'uuid[]').notNullable();
    t.jsonb('input_types').notNullable().defaultTo(knex.raw(`'{}'::jsonb`));
    t.integer('prompt_tokens').notNullable().defaultTo(0);
    t.integer('completion_tokens').notNullable().defaultTo(0);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'object_type', 'object_id']);
  });
  await enableTenantRls(knex, 'ai_provenance');

  await knex.schema.createTable('ai_summaries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    workspace(t);
    t.string('object_type', 20).notNullable();
    t.uuid('object_id').notNullable();
    t.string('kind', 20).notNullable();
    t.string('framework', 40).notNullable();
    t.jsonb('content').notNullable();
    t.integer('dropped_quotes').notNullable().defaultTo(0);
    t.specificType('contributors', 'uuid[]').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'object_type', 'object_id']);
  });
  await knex.raw(
    `alter table ai_summaries add constraint ai_summaries_kind_check check (kind in ('chapter', 'paragraph', 'streaming'))`,
  );
  await enableTenantRls(knex, 'ai_summaries');

  await knex.schema.createTable('ai_embeddings', (t) => {
    workspace(t);
    t.string('object_type', 20).notNullable();
    t.uuid('object_id').notNullable();
    t.uuid('project_id').notNullable();
    t.text('model').notNullable();
    t.text('text_hash').notNullable();
    t.specificType('vector', 'real[]').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'object_type', 'object_id']);
    t.index(['workspace_id', 'model']);
  });
  await enableTenantRls(knex, 'ai_embeddings');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['ai_embeddings', 'ai_summaries', 'ai_provenance', 'ai_usage', 'ai_settings'])
    await knex.schema.dropTableIfExists(table);
}
