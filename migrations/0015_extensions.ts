import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * The plugin host's tables.
 *
 * - plugin_installations: a workspace's installation of a plugin (admins install), its settings,
 *   its secrets and connection tokens encrypted (AES-256-GCM, key derived from the server secret),
 *   and the provider account it is connected to (`external_id`, e.g. a Slack team id), which is how
 *   an inbound webhook finds its workspace.
 * - plugin_project_enablements: the projects a plugin is enabled on (project managers enable).
 * - plugin_user_connections: a person's own account at a provider (/settings/user/integrations).
 * - integration_auth_states: the state of an OAuth flow in progress, single use.
 * - plugin_webhook_events: inbound webhooks as verified, one row per (plugin, provider event id),
 *   so a repeated delivery has no second effect. An event is not a workspace's until it is routed,
 *   so this intake table has no workspace column; the app role may only add and mark rows.
 * - plugin_effects: what a plugin's idempotent calls made (a note per Slack message), by key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plugin_installations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('plugin_id').notNullable();
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.text('secrets');
    t.text('external_id');
    t.text('connection_label');
    t.text('connection_tokens');
    t.uuid('installed_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'plugin_id']);
    t.unique(['plugin_id', 'external_id']);
  });
  await enableTenantRls(knex, 'plugin_installations');

  await knex.schema.createTable('plugin_project_enablements', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('plugin_id').notNullable();
    t.uuid('enabled_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['project_id', 'plugin_id']);
    t.index(['workspace_id', 'plugin_id']);
  });
  await enableTenantRls(knex, 'plugin_project_enablements');

  await knex.schema.createTable('plugin_user_connections', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('plugin_id').notNullable();
    t.text('external_id');
    t.text('label');
    t.text('tokens').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'user_id', 'plugin_id']);
  });
  await enableTenantRls(knex, 'plugin_user_connections');

  await knex.schema.createTable('integration_auth_states', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('plugin_id').notNullable();
    t.text('xsrf_hash').notNullable();
    t.text('origin').notNullable();
    t.text('source').notNullable();
    t.jsonb('options').notNullable().defaultTo('{}');
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await enableTenantRls(knex, 'integration_auth_states');

  await knex.schema.createTable('plugin_webhook_events', (t) => {
    t.bigIncrements('id');
    t.text('plugin_id').notNullable();
    t.text('event_id').notNullable();
    t.text('path').notNullable();
    t.jsonb('headers').notNullable();
    t.text('body').notNullable();
    t.uuid('installation_id').references('plugin_installations.id').onDelete('SET NULL');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('handled_at', { useTz: true });
    t.unique(['plugin_id', 'event_id']);
  });

  await knex.schema.createTable('plugin_effects', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('plugin_id').notNullable();
    t.text('key').notNullable();
    // Null while the work is in progress (the key is claimed before the object exists).
    t.text('object_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'plugin_id', 'key']);
  });
  await enableTenantRls(knex, 'plugin_effects');

  // An inbound webhook names a provider account, not a workspace: this finds the installation
  // connected to it (or, for providers without accounts, the installation named by its own id)
  // without opening every workspace's rows to the caller.
  await knex.raw(`
    create or replace function plugin_installation_for(p_plugin text, p_external text)
    returns table (id uuid, workspace_id uuid, by_account boolean)
    language sql stable security definer set search_path = public as $$
      select i.id, i.workspace_id, coalesce(i.external_id = p_external, false) from plugin_installations i
      where i.plugin_id = p_plugin and (i.external_id = p_external or i.id::text = p_external)
      order by coalesce(i.external_id = p_external, false) desc
      limit 1
    $$`);
  await knex.raw('revoke all on function plugin_installation_for(text, text) from public');
  // ensureAppRole grants the application role EXECUTE on the schema's functions after migrating.
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists plugin_installation_for(text, text)');
  for (const table of [
    'plugin_effects',
    'plugin_webhook_events',
    'integration_auth_states',
    'plugin_user_connections',
    'plugin_project_enablements',
    'plugin_installations',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
