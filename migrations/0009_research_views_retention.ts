import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Project views (002 §2) with their canvas items, and the workspace's data retention policy with
 * the deletion warnings it has announced (002 §3, 002 §9).
 *
 * A view keeps its settings (sort, filter, grouping, columns, hidden fields and options) in
 * `view_data` and the canvas state (staging area, per-object ranks, expanded cards, summary) in
 * `canvas`, the shapes a project export writes. Canvas items are rows of their own, so one can
 * be moved without rewriting the others; a reference points at its note, insight or highlight
 * through a foreign key, so deleting the object for good takes its references with it.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const workspace = (t: Knex.CreateTableBuilder) =>
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };
  const by = (t: Knex.CreateTableBuilder, column: string) => t.uuid(column).references('users.id').onDelete('SET NULL');
  const check = (table: string, name: string, sql: string) =>
    knex.raw(`alter table ?? add constraint ?? check (${sql})`, [table, name]);

  await knex.schema.createTable('project_views', (t) => {
    id(t);
    workspace(t);
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('layout').notNullable();
    t.text('object_type').notNullable();
    t.double('rank').notNullable().defaultTo(0);
    t.jsonb('view_data').notNullable().defaultTo('{}');
    t.jsonb('canvas').notNullable().defaultTo('{}');
    by(t, 'created_by');
    by(t, 'updated_by');
    stamps(t);
    t.index(['workspace_id', 'project_id', 'rank']);
  });
  await check('project_views', 'project_views_title_check', 'char_length(title) between 1 and 200');
  await check('project_views', 'project_views_layout_check', `layout in ('BOARD', 'CANVAS', 'GRID', 'LIST', 'TABLE')`);
  await check('project_views', 'project_views_object_type_check', `object_type in ('HIGHLIGHT', 'INSIGHT', 'NOTE')`);
  await check(
    'project_views',
    'project_views_data_check',
    `jsonb_typeof(view_data) = 'object' and jsonb_typeof(canvas) = 'object'`,
  );
  await enableTenantRls(knex, 'project_views');

  await knex.schema.createTable('project_view_canvas_items', (t) => {
    id(t);
    workspace(t);
    t.uuid('view_id').notNullable().references('project_views.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.double('x').notNullable();
    t.double('y').notNullable();
    t.double('width');
    t.double('height');
    t.boolean('hidden').notNullable().defaultTo(false);
    t.text('text');
    t.text('text_format');
    t.text('title');
    t.text('color');
    t.uuid('note_id').references('notes.id').onDelete('CASCADE');
    t.uuid('insight_id').references('insights.id').onDelete('CASCADE');
    t.uuid('highlight_id').references('highlights.id').onDelete('CASCADE');
    by(t, 'created_by');
    stamps(t);
    t.index(['workspace_id', 'view_id', 'created_at']);
  });
  const items = 'project_view_canvas_items';
  await check(items, 'canvas_items_kind_check', `kind in ('RECTANGLE', 'TEXT', 'GROUP', 'REFERENCE')`);
  await check(
    items,
    'canvas_items_text_format_check',
    `text_format is null or text_format in ('PARAGRAPH', 'H1', 'H2', 'H3')`,
  );
  await check(items, 'canvas_items_color_check', `color is null or color ~ '^#[0-9a-f]{6}$'`);
  await check(
    items,
    'canvas_items_size_check',
    `(kind = 'REFERENCE') = (width is null and height is null) and (width is null or width > 0) and (height is null or height > 0)`,
  );
  await check(
    items,
    'canvas_items_target_check',
    `(kind = 'REFERENCE') = (num_nonnulls(note_id, insight_id, highlight_id) = 1) and num_nonnulls(note_id, insight_id, highlight_id) <= 1`,
  );
  // An object appears at most once on a canvas (its rank and expanded state are kept per object).
  for (const column of ['note_id', 'insight_id', 'highlight_id']) {
    await knex.raw(`create unique index ?? on ?? (view_id, ??) where ?? is not null`, [
      `canvas_items_${column}_unique`,
      items,
      column,
      column,
    ]);
  }
  await enableTenantRls(knex, items);

  // One row per workspace with retention on; no row means off.
  await knex.schema.createTable('data_retention_policies', (t) => {
    t.uuid('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.integer('retention_days').notNullable();
    by(t, 'updated_by');
    stamps(t);
  });
  await check('data_retention_policies', 'data_retention_days_check', 'retention_days in (30, 60, 90, 180, 365)');
  await enableTenantRls(knex, 'data_retention_policies');

  // What each deletion warning announced: notes and insights created before `cutoff` are deleted
  // once `delete_after` has passed (and they are past the retention period).
  await knex.schema.createTable('data_retention_warnings', (t) => {
    id(t);
    workspace(t);
    t.integer('retention_days').notNullable();
    t.timestamp('cutoff', { useTz: true }).notNullable();
    t.timestamp('delete_after', { useTz: true }).notNullable();
    t.integer('note_count').notNullable();
    t.integer('insight_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'delete_after']);
  });
  await enableTenantRls(knex, 'data_retention_warnings');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'data_retention_warnings',
    'data_retention_policies',
    'project_view_canvas_items',
    'project_views',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
