import type { Knex } from 'knex';

/**
 * Webhook URLs of each installation's own (/hooks/{pluginId}/{key}), for providers that sign every
 * account's deliveries with its own secret.
 *
 * - plugin_installations.webhook_key_hash: SHA-256 of the URL's key (256 random bits), how a
 *   delivery finds its installation; the key itself cannot be read back from it.
 * - plugin_installations.webhook_key: the key sealed with the server secret (as settings' secrets
 *   are), so admins can be shown the URL again; a copy of the database alone does not reveal it.
 * - plugin_webhook_events.scope: what a delivery is deduplicated within. Empty for a plugin's
 *   fixed paths (one provider event id per plugin, as before); the installation's id for its own
 *   URL, since two accounts at a provider may reuse each other's event ids.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plugin_installations', (t) => {
    t.text('webhook_key_hash').unique();
    t.text('webhook_key');
  });
  await knex.schema.alterTable('plugin_webhook_events', (t) => {
    t.text('scope').notNullable().defaultTo('');
    t.dropUnique(['plugin_id', 'event_id']);
    t.unique(['plugin_id', 'scope', 'event_id']);
  });
  // A delivery names no workspace, only its key: this finds the installation whose key it is
  // without opening any workspace's rows to the caller.
  await knex.raw(`
    create or replace function plugin_installation_for_webhook_key(p_plugin text, p_key_hash text)
    returns table (id uuid, workspace_id uuid)
    language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
      select i.id, i.workspace_id from public.plugin_installations i
      where i.plugin_id = p_plugin and i.webhook_key_hash = p_key_hash
    $$`);
  await knex.raw('revoke all on function plugin_installation_for_webhook_key(text, text) from public');
  // ensureAppRole grants the application role EXECUTE on the schema's functions after migrating.
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists plugin_installation_for_webhook_key(text, text)');
  await knex('plugin_webhook_events').where('scope', '<>', '').delete();
  await knex.schema.alterTable('plugin_webhook_events', (t) => {
    t.dropUnique(['plugin_id', 'scope', 'event_id']);
    t.unique(['plugin_id', 'event_id']);
    t.dropColumn('scope');
  });
  await knex.schema.alterTable('plugin_installations', (t) => {
    t.dropColumn('webhook_key_hash');
    t.dropColumn('webhook_key');
  });
}
