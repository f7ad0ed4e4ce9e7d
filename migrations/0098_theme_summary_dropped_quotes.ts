import type { Knex } from 'knex';

/** How many quotes a theme's summary dropped because they were not found in its data points. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table channel_themes add column summary_dropped_quotes integer not null default 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table channel_themes drop column summary_dropped_quotes');
}
