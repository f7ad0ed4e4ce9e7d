import type { Knex } from 'knex';

/**
 * Channel charts on dashboards choose what they count and how they are drawn: data points over
 * time by theme (bar or line) or the count by theme (bar or pie). Charts made before keep what
 * they showed, data points over time as bars.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dashboard_charts', (t) => {
    t.text('measure');
    t.text('chart_type');
  });
  await knex('dashboard_charts').where({ kind: 'CHANNEL' }).update({ measure: 'OVER_TIME', chart_type: 'BAR' });
  await knex.raw(`alter table dashboard_charts add constraint dashboard_charts_channel_options_check check (
    (kind = 'CHANNEL') = (measure is not null and chart_type is not null)
    and (measure is null or (measure = 'OVER_TIME' and chart_type in ('BAR', 'LINE')) or (measure = 'BY_THEME' and chart_type in ('BAR', 'PIE'))))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table dashboard_charts drop constraint if exists dashboard_charts_channel_options_check');
  await knex.schema.alterTable('dashboard_charts', (t) => {
    t.dropColumn('measure');
    t.dropColumn('chart_type');
  });
}
