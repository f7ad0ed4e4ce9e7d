import type { Knex } from 'knex';

/**
 * The domains outside the workspace that automations' sendEmail may write to, kept by workspace
 * admins (lower-case, without "@"). Members can always be emailed; anyone else only at these.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('automation_settings', (t) => {
    t.specificType('email_domains', 'text[]').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('automation_settings', (t) => {
    t.dropColumn('email_domains');
  });
}
