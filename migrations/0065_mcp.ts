import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * The MCP server's workspace setting: whether MCP clients (Claude, ChatGPT, IDEs) acting with a
 * member's API token may run tools that change things. Off until an admin allows it; read tools
 * are always served.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mcp_settings', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.primary(['workspace_id']);
    t.boolean('allow_writes').notNullable().defaultTo(false);
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await enableTenantRls(knex, 'mcp_settings');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mcp_settings');
}
