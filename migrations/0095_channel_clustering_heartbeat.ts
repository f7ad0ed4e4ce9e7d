import type { Knex } from 'knex';

/**
 * A running clustering writes when it was last alive: a run whose worker died shows as being
 * taken over instead of its last percent, until another worker starts it again or it fails.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_clusterings', (t) => {
    t.timestamp('heartbeat_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channel_clusterings', (t) => t.dropColumn('heartbeat_at'));
}
