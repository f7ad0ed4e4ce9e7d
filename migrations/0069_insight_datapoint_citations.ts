import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * An insight cites channel data points as its evidence, as it cites highlights. A data point may
 * back many insights, so citations are rows of their own; deleting either side removes the citation.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('insight_datapoint_citations', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('insight_id').notNullable().references('insights.id').onDelete('CASCADE');
    t.uuid('datapoint_id').notNullable().references('channel_datapoints.id').onDelete('CASCADE');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['insight_id', 'datapoint_id']);
    t.index(['workspace_id', 'datapoint_id']);
  });
  await enableTenantRls(knex, 'insight_datapoint_citations');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('insight_datapoint_citations');
}
