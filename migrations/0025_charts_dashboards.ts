import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Project charts and dashboards (000 §2, §3, §9).
 *
 * A project chart counts a project's highlights, notes or highlighted text per tag or tag group
 * and draws it as a bar, radar, pie or treemap chart; its filter keeps the collapsed group ids and
 * the hidden item ids. A dashboard collects charts of several projects and channels: each of its
 * charts is a project chart (deleted with it) or a channel's data points over time. A channel
 * chart names its channel without a foreign key, because channels are a module of their own that
 * an installation may leave out; a channel that is gone or unreadable is shown as such.
 * Share links now also cover project charts and dashboards.
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

  await knex.schema.createTable('project_charts', (t) => {
    id(t);
    workspace(t);
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('metric').notNullable();
    t.text('group_by').notNullable();
    t.text('chart_type').notNullable();
    t.jsonb('collapsed_group_ids').notNullable().defaultTo('[]');
    t.jsonb('hidden_item_ids').notNullable().defaultTo('[]');
    by(t, 'created_by');
    by(t, 'updated_by');
    stamps(t);
    t.index(['workspace_id', 'project_id', 'created_at']);
  });
  await check('project_charts', 'project_charts_title_check', 'char_length(title) between 1 and 300');
  await check(
    'project_charts',
    'project_charts_metric_check',
    `metric in ('HIGHLIGHT_COUNT', 'NOTE_COUNT', 'TEXT_VOLUME')`,
  );
  await check('project_charts', 'project_charts_group_by_check', `group_by in ('TAG', 'TAG_GROUP')`);
  await check('project_charts', 'project_charts_type_check', `chart_type in ('BAR', 'RADAR', 'PIE', 'TREEMAP')`);
  await check(
    'project_charts',
    'project_charts_filter_check',
    `jsonb_typeof(collapsed_group_ids) = 'array' and jsonb_typeof(hidden_item_ids) = 'array'`,
  );
  await enableTenantRls(knex, 'project_charts');

  await knex.schema.createTable('dashboards', (t) => {
    id(t);
    workspace(t);
    t.text('title').notNullable();
    by(t, 'created_by');
    by(t, 'updated_by');
    stamps(t);
    t.index(['workspace_id', 'updated_at']);
  });
  await check('dashboards', 'dashboards_title_check', 'char_length(title) between 1 and 300');
  await enableTenantRls(knex, 'dashboards');

  await knex.schema.createTable('dashboard_charts', (t) => {
    id(t);
    workspace(t);
    t.uuid('dashboard_id').notNullable().references('dashboards.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.uuid('project_chart_id').references('project_charts.id').onDelete('CASCADE');
    t.uuid('channel_id');
    t.text('title');
    t.text('interval');
    t.double('rank').notNullable().defaultTo(0);
    by(t, 'created_by');
    stamps(t);
    t.index(['workspace_id', 'dashboard_id', 'rank']);
  });
  const items = 'dashboard_charts';
  await check(items, 'dashboard_charts_kind_check', `kind in ('PROJECT_CHART', 'CHANNEL')`);
  await check(
    items,
    'dashboard_charts_target_check',
    `(kind = 'PROJECT_CHART') = (project_chart_id is not null and channel_id is null) and (kind = 'CHANNEL') = (channel_id is not null and project_chart_id is null)`,
  );
  await check(items, 'dashboard_charts_title_check', 'title is null or char_length(title) between 1 and 300');
  await check(items, 'dashboard_charts_interval_check', `interval is null or interval in ('DAY', 'WEEK', 'MONTH')`);
  await enableTenantRls(knex, items);

  await knex.raw(`alter table shares drop constraint shares_object_type_check`);
  await knex.raw(`alter table shares add constraint shares_object_type_check
    check (object_type in ('insight', 'note', 'noteHighlight', 'project', 'projectReadme', 'projectChart', 'dashboard'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('shares').whereIn('object_type', ['projectChart', 'dashboard']).delete();
  await knex.raw(`alter table shares drop constraint shares_object_type_check`);
  await knex.raw(`alter table shares add constraint shares_object_type_check
    check (object_type in ('insight', 'note', 'noteHighlight', 'project', 'projectReadme'))`);
  await knex.schema.dropTableIfExists('dashboard_charts');
  await knex.schema.dropTableIfExists('dashboards');
  await knex.schema.dropTableIfExists('project_charts');
}
