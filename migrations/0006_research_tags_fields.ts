import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Tags and custom fields. Tag boards belong to the workspace (no project) or to one project;
 * groups belong to a board; tags to a board and optionally a group. A highlight's tags are rows
 * of highlight_tags. Fields belong to a field set (object type) and optionally a project; select
 * options are rows of their own so values can refer to them by id.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const workspace = (t: Knex.CreateTableBuilder) =>
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };
  const rank = (t: Knex.CreateTableBuilder) => t.double('rank').notNullable().defaultTo(0);
  const createdBy = (t: Knex.CreateTableBuilder) => t.uuid('created_by').references('users.id').onDelete('SET NULL');
  const check = (table: string, name: string, sql: string) =>
    knex.raw(`alter table ?? add constraint ?? check (${sql})`, [table, name]);
  const hex = (column: string) => `${column} is null or ${column} ~ '^#[0-9a-f]{6}$'`;

  await knex.schema.createTable('tag_boards', (t) => {
    id(t);
    workspace(t);
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('description');
    rank(t);
    createdBy(t);
    stamps(t);
    t.index(['workspace_id', 'project_id', 'rank']);
  });
  await check('tag_boards', 'tag_boards_title_check', 'char_length(title) between 1 and 50');
  await enableTenantRls(knex, 'tag_boards');

  await knex.schema.createTable('tag_groups', (t) => {
    id(t);
    workspace(t);
    t.uuid('board_id').notNullable().references('tag_boards.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('color');
    t.text('description');
    rank(t);
    createdBy(t);
    stamps(t);
    t.index(['workspace_id', 'board_id', 'rank']);
  });
  await check('tag_groups', 'tag_groups_title_check', 'char_length(title) between 1 and 50');
  await check('tag_groups', 'tag_groups_color_check', hex('color'));
  await enableTenantRls(knex, 'tag_groups');

  await knex.schema.createTable('tags', (t) => {
    id(t);
    workspace(t);
    t.uuid('board_id').notNullable().references('tag_boards.id').onDelete('CASCADE');
    t.uuid('group_id').references('tag_groups.id').onDelete('SET NULL');
    t.text('title').notNullable();
    t.text('color').notNullable();
    t.text('description');
    t.boolean('locked').notNullable().defaultTo(false);
    rank(t);
    createdBy(t);
    stamps(t);
    t.index(['workspace_id', 'board_id', 'group_id', 'rank']);
  });
  await check('tags', 'tags_title_check', 'char_length(title) between 1 and 200');
  await check('tags', 'tags_color_check', hex('color'));
  await enableTenantRls(knex, 'tags');

  await knex.schema.createTable('highlight_tags', (t) => {
    workspace(t);
    t.uuid('highlight_id').notNullable().references('highlights.id').onDelete('CASCADE');
    t.uuid('tag_id').notNullable().references('tags.id').onDelete('CASCADE');
    createdBy(t);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['highlight_id', 'tag_id']);
    // Highlight counts and merges read taggings by tag.
    t.index(['tag_id', 'highlight_id']);
  });
  await enableTenantRls(knex, 'highlight_tags');

  await knex.schema.createTable('fields', (t) => {
    id(t);
    workspace(t);
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    t.text('object_type').notNullable();
    t.text('type').notNullable();
    t.text('label').notNullable();
    // Number format and currency symbol, or a select field's max selectable.
    t.jsonb('config').notNullable().defaultTo('{}');
    rank(t);
    createdBy(t);
    stamps(t);
    t.index(['workspace_id', 'object_type', 'project_id', 'rank']);
  });
  await check('fields', 'fields_label_check', 'char_length(label) between 1 and 250');
  await check('fields', 'fields_object_type_check', `object_type in ('NOTE', 'INSIGHT', 'PERSON', 'WORKSPACE')`);
  await check(
    'fields',
    'fields_type_check',
    `type in ('ARR', 'BOOLEAN', 'CSAT', 'DATETIME', 'EMAIL', 'NPS', 'NUMBER', 'PERSON', 'PHONE', 'RATING', 'SELECT', 'TEXT', 'URL')`,
  );
  await enableTenantRls(knex, 'fields');

  await knex.schema.createTable('field_options', (t) => {
    id(t);
    workspace(t);
    t.uuid('field_id').notNullable().references('fields.id').onDelete('CASCADE');
    t.text('label').notNullable();
    t.text('display_label');
    t.text('color').notNullable();
    rank(t);
    stamps(t);
  });
  await check('field_options', 'field_options_label_check', 'char_length(label) between 1 and 50');
  await check('field_options', 'field_options_color_check', hex('color'));
  // Options are matched case-insensitively, so two may not differ by case alone.
  await knex.raw('create unique index field_options_label_unique on field_options (field_id, lower(label))');
  await enableTenantRls(knex, 'field_options');

  await knex.schema.createTable('field_values', (t) => {
    workspace(t);
    t.uuid('field_id').notNullable().references('fields.id').onDelete('CASCADE');
    t.text('object_type').notNullable();
    t.uuid('object_id').notNullable();
    t.jsonb('value').notNullable();
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    stamps(t);
    t.primary(['field_id', 'object_type', 'object_id']);
    t.index(['workspace_id', 'object_type', 'object_id']);
  });
  await check('field_values', 'field_values_object_type_check', `object_type in ('NOTE', 'INSIGHT', 'PERSON')`);
  await enableTenantRls(knex, 'field_values');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'field_values',
    'field_options',
    'fields',
    'highlight_tags',
    'tags',
    'tag_groups',
    'tag_boards',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
