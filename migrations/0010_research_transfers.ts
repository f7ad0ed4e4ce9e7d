import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Project exports and imports (001 §3.7). A transfer records one export or import run by a job:
 * its status, progress and counts, the archive it wrote or reads, and, for imports, which new id
 * each exported id became (the id mappings).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_transfers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    // The exported project, or the project an import created (once it has).
    t.uuid('project_id').references('projects.id').onDelete('SET NULL');
    t.text('kind').notNullable();
    t.text('status').notNullable().defaultTo('QUEUED');
    t.integer('progress').notNullable().defaultTo(0);
    t.jsonb('counts').notNullable().defaultTo('{}');
    t.text('error');
    t.text('title');
    t.text('file_path');
    t.bigInteger('file_size');
    // An import of another workspace's export: which export it read.
    t.uuid('source_transfer_id');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.index(['workspace_id', 'project_id', 'created_at']);
    t.index(['workspace_id', 'created_by', 'created_at']);
  });
  await knex.raw(
    `alter table project_transfers add constraint project_transfers_kind_check check (kind in ('EXPORT', 'IMPORT'))`,
  );
  await knex.raw(
    `alter table project_transfers add constraint project_transfers_status_check check (status in ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'))`,
  );
  await knex.raw(
    `alter table project_transfers add constraint project_transfers_progress_check check (progress between 0 and 100)`,
  );
  await enableTenantRls(knex, 'project_transfers');

  await knex.schema.createTable('project_transfer_ids', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('transfer_id').notNullable().references('project_transfers.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('source_id').notNullable();
    t.text('target_id').notNullable();
    t.primary(['transfer_id', 'kind', 'source_id']);
  });
  await enableTenantRls(knex, 'project_transfer_ids');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('project_transfer_ids');
  await knex.schema.dropTableIfExists('project_transfers');
}
