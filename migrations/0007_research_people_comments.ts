import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * People (contacts) and their links to notes and highlights; comments on notes and insights; and
 * each member's notification settings per workspace. Notifications about a comment are written
 * for other members of the workspace, so the notifications table gains an insert policy for rows
 * of the current workspace (reading and updating stay limited to one's own rows).
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

  await knex.schema.createTable('people', (t) => {
    id(t);
    workspace(t);
    t.text('name').notNullable();
    t.text('email');
    t.text('company');
    t.text('title');
    t.text('avatar_url');
    by(t, 'created_by');
    by(t, 'updated_by');
    stamps(t);
    t.timestamp('deleted_at', { useTz: true });
    t.index(['workspace_id', 'name', 'id']);
  });
  await check('people', 'people_name_check', 'char_length(name) between 1 and 300');
  await check('people', 'people_email_check', 'email is null or char_length(email) <= 320');
  await check('people', 'people_company_check', 'company is null or char_length(company) <= 200');
  await check('people', 'people_title_check', 'title is null or char_length(title) <= 200');
  await check('people', 'people_avatar_url_check', 'avatar_url is null or char_length(avatar_url) <= 3000');
  // One live contact per address in a workspace; a trashed contact keeps its address but no longer blocks it.
  await knex.raw(
    'create unique index people_email_unique on people (workspace_id, lower(email)) where email is not null and deleted_at is null',
  );
  await knex.raw('create index people_name_trgm on people using gin (lower(name) gin_trgm_ops)');
  await enableTenantRls(knex, 'people');

  for (const [table, column, target] of [
    ['note_people', 'note_id', 'notes.id'],
    ['highlight_people', 'highlight_id', 'highlights.id'],
  ] as const) {
    await knex.schema.createTable(table, (t) => {
      workspace(t);
      t.uuid(column).notNullable().references(target).onDelete('CASCADE');
      t.uuid('person_id').notNullable().references('people.id').onDelete('CASCADE');
      by(t, 'created_by');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary([column, 'person_id']);
      t.index(['workspace_id', 'person_id']);
    });
    await enableTenantRls(knex, table);
  }

  await knex.schema.createTable('comments', (t) => {
    id(t);
    workspace(t);
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('note_id').references('notes.id').onDelete('CASCADE');
    t.uuid('insight_id').references('insights.id').onDelete('CASCADE');
    t.text('body').notNullable();
    t.specificType('mentioned_user_ids', 'uuid[]').notNullable().defaultTo('{}');
    by(t, 'created_by');
    stamps(t);
    t.timestamp('edited_at', { useTz: true });
    t.index(['workspace_id', 'note_id', 'created_at', 'id']);
    t.index(['workspace_id', 'insight_id', 'created_at', 'id']);
  });
  await check('comments', 'comments_body_check', 'char_length(body) between 1 and 10000');
  await check('comments', 'comments_object_check', '(note_id is null) <> (insight_id is null)');
  await enableTenantRls(knex, 'comments');

  // Per member and workspace; a missing row means the defaults.
  await knex.schema.createTable('notification_settings', (t) => {
    workspace(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.boolean('all_comments_enabled').notNullable().defaultTo(true);
    t.boolean('all_changes_enabled').notNullable().defaultTo(false);
    t.boolean('insights_published_enabled').notNullable().defaultTo(true);
    t.boolean('email_notifications_disabled').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'user_id']);
  });
  // Members read each other's settings (to decide whom to notify) but change only their own.
  await knex.raw('alter table notification_settings enable row level security');
  await knex.raw('alter table notification_settings force row level security');
  await knex.raw(
    `create policy settings_read on notification_settings for select using (workspace_id = app_workspace_id())`,
  );
  await knex.raw(`create policy settings_insert on notification_settings for insert
    with check (workspace_id = app_workspace_id() and user_id = app_user_id())`);
  await knex.raw(`create policy settings_update on notification_settings for update
    using (workspace_id = app_workspace_id() and user_id = app_user_id())
    with check (workspace_id = app_workspace_id() and user_id = app_user_id())`);

  await knex.raw(`create policy workspace_notifications_insert on notifications for insert
    with check (workspace_id = app_workspace_id())`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop policy if exists workspace_notifications_insert on notifications');
  for (const table of ['notification_settings', 'comments', 'highlight_people', 'note_people', 'people']) {
    await knex.schema.dropTableIfExists(table);
  }
}
