import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * The research repository's content: folders (project categories), projects, notes, insights,
 * highlights and per-person stars. Deleting sets `deleted_at` (the trash); ranks are floating
 * point so an item can be placed between two neighbours without renumbering the list.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const workspace = (t: Knex.CreateTableBuilder) =>
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true });
  };
  const rank = (t: Knex.CreateTableBuilder) => t.double('rank').notNullable().defaultTo(0);
  const by = (t: Knex.CreateTableBuilder, column: string) => t.uuid(column).references('users.id').onDelete('SET NULL');

  await knex.schema.createTable('project_categories', (t) => {
    id(t);
    workspace(t);
    t.uuid('parent_id').references('project_categories.id').onDelete('CASCADE');
    t.text('title').notNullable();
    rank(t);
    by(t, 'created_by');
    stamps(t);
    t.index(['workspace_id', 'parent_id', 'rank']);
  });
  await knex.raw(
    `alter table project_categories add constraint project_categories_title_check check (char_length(title) between 1 and 200)`,
  );
  await enableTenantRls(knex, 'project_categories');

  await knex.schema.createTable('projects', (t) => {
    id(t);
    workspace(t);
    t.uuid('category_id').references('project_categories.id').onDelete('SET NULL');
    t.text('title').notNullable();
    t.text('status').notNullable().defaultTo('ACTIVE');
    t.text('color');
    t.text('icon');
    t.jsonb('readme');
    t.specificType('enabled_sections', 'text[]');
    rank(t);
    t.jsonb('permissions').notNullable().defaultTo(knex.raw(`'{"groups":{},"users":{}}'::jsonb`));
    by(t, 'created_by');
    by(t, 'updated_by');
    stamps(t);
    t.index(['workspace_id', 'rank']);
    t.index(['workspace_id', 'category_id']);
  });
  await knex.raw(
    `alter table projects add constraint projects_title_check check (char_length(title) between 1 and 200)`,
  );
  await knex.raw(
    `alter table projects add constraint projects_status_check check (status in ('ACTIVE', 'ARCHIVED', 'COMPLETED'))`,
  );
  await enableTenantRls(knex, 'projects');

  for (const table of ['notes', 'insights']) {
    await knex.schema.createTable(table, (t) => {
      id(t);
      workspace(t);
      t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.text('title').notNullable().defaultTo('');
      t.jsonb('content');
      t.text('content_text').notNullable().defaultTo('');
      t.boolean('archived').notNullable().defaultTo(false);
      t.boolean('locked').notNullable().defaultTo(false);
      rank(t);
      if (table === 'insights') {
        t.timestamp('published_at', { useTz: true });
        t.jsonb('summary');
      }
      by(t, 'created_by');
      by(t, 'updated_by');
      stamps(t);
      // The first page of a project's list reads one index range in either order.
      t.index(['workspace_id', 'project_id', 'rank', 'id']);
      t.index(['workspace_id', 'project_id', 'created_at', 'id']);
    });
    await knex.raw(`alter table ?? add constraint ?? check (char_length(title) <= 200)`, [
      table,
      `${table}_title_check`,
    ]);
    await enableTenantRls(knex, table);
  }

  await knex.schema.createTable('highlights', (t) => {
    id(t);
    workspace(t);
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('note_id').references('notes.id').onDelete('CASCADE');
    t.uuid('insight_id').references('insights.id').onDelete('CASCADE');
    t.text('text').notNullable();
    t.integer('start_offset').notNullable();
    t.integer('end_offset').notNullable();
    t.text('color');
    by(t, 'created_by');
    stamps(t);
    t.index(['workspace_id', 'note_id', 'start_offset']);
    t.index(['workspace_id', 'project_id', 'created_at']);
  });
  await knex.raw(
    `alter table highlights add constraint highlights_span_check check (start_offset >= 0 and start_offset < end_offset)`,
  );
  await enableTenantRls(knex, 'highlights');

  await knex.schema.createTable('stars', (t) => {
    workspace(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('object_type', 30).notNullable();
    t.uuid('object_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'user_id', 'object_type', 'object_id']);
  });
  await enableTenantRls(knex, 'stars');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['stars', 'highlights', 'insights', 'notes', 'projects', 'project_categories']) {
    await knex.schema.dropTableIfExists(table);
  }
}
