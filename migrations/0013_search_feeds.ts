import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Saved feeds (000 §2 /explore): a search kept under a title — its query, filter form, result
 * types and project or folder scope — private to the person who saved it or shared with the
 * workspace. And each member's search preferences, so far the grid or list layout of /search.
 *
 * The filter is stored normalised (blank forms dropped), or null when nothing is left; a shared
 * feed always has one (000 §5: a shared filter must have a value), which the check keeps true
 * even for rows written around the API.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saved_feeds', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('query');
    t.jsonb('filter');
    t.specificType('result_types', 'text[]').notNullable().defaultTo('{}');
    t.specificType('project_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.specificType('project_category_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.boolean('shared').notNullable().defaultTo(false);
    t.double('rank').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_by', 'rank']);
    t.index(['workspace_id', 'shared', 'rank']);
  });
  const check = (name: string, sql: string) =>
    knex.raw(`alter table saved_feeds add constraint ?? check (${sql})`, [name]);
  await check('saved_feeds_title_check', 'char_length(title) between 1 and 200');
  await check('saved_feeds_query_check', 'query is null or char_length(query) between 1 and 2000');
  await check('saved_feeds_filter_check', `filter is null or jsonb_typeof(filter) = 'object'`);
  await check('saved_feeds_shared_filter_check', 'not shared or filter is not null');
  await check(
    'saved_feeds_result_types_check',
    `result_types <@ array['INSIGHT','HIGHLIGHT','TAG','NOTE','PROJECT','CHANNEL','THEME','PERSON','PROJECT_CATEGORY']::text[]`,
  );
  await enableTenantRls(knex, 'saved_feeds');
  // Someone else's feed is out of sight unless it is shared, whatever the query asks for.
  await knex.raw(
    `create policy saved_feeds_visible on saved_feeds as restrictive for select using (shared or created_by = app_user_id())`,
  );

  await knex.schema.createTable('search_preferences', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('layout').notNullable().defaultTo('LIST');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'user_id']);
  });
  await knex.raw(
    `alter table search_preferences add constraint search_preferences_layout_check check (layout in ('GRID', 'LIST'))`,
  );
  // A member's preferences are theirs alone: read and written only in their own scope.
  await knex.raw('alter table search_preferences enable row level security');
  await knex.raw('alter table search_preferences force row level security');
  await knex.raw(`create policy own_preferences on search_preferences
    using (workspace_id = app_workspace_id() and user_id = app_user_id())
    with check (workspace_id = app_workspace_id() and user_id = app_user_id())`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('search_preferences');
  await knex.schema.dropTableIfExists('saved_feeds');
}
