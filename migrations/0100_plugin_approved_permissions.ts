import type { Knex } from 'knex';

/**
 * The permissions a workspace admin approved for an installation of a plugin. A new version of
 * the plugin that declares more runs with this set until an admin approves the rest on Settings →
 * Extensions. Null for installations made before this column: the server records the permissions
 * of the version it loads at its next start (see installations/approval.ts). The table's row-level
 * security covers the column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plugin_installations', (t) => {
    t.specificType('approved_permissions', 'text[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plugin_installations', (t) => {
    t.dropColumn('approved_permissions');
  });
}
