import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Data points counted per channel, dataset and day (UTC), so a channel's count, its chart over
 * time, its sparkline and its datasets' counts read a few hundred counter rows rather than every
 * data point. A statement-level trigger keeps the counters in the transaction that inserts, moves
 * (a changed date, dataset or channel) or deletes data points, whichever path does it (an import,
 * the API, a deleted dataset's cascade); a counter that falls to zero is removed.
 *
 * Deleting only lowers counters that exist: when a workspace, channel or dataset goes, its counters
 * go by their own foreign keys, whichever of the two cascades runs first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('channel_datapoint_counts', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.uuid('dataset_id').notNullable().references('channel_datasets.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('count').notNullable();
    t.primary(['channel_id', 'dataset_id', 'day']);
    t.index(['workspace_id', 'channel_id', 'day']);
    t.index(['dataset_id']);
  });
  await enableTenantRls(knex, 'channel_datapoint_counts');

  const rowsOf = (rows: string) => `(select * from ${rows} where workspace_id = w)`;
  const grouped = (rows: string, sign: string) =>
    `select workspace_id, channel_id, dataset_id, (created_at at time zone 'UTC')::date as day, ${sign}count(*)::int as n from ${rowsOf(rows)} r group by 1, 2, 3, 4`;
  // Keys are written in one order so concurrent writers to the same counters wait, not deadlock.
  const upsert = (deltas: string) => `
    insert into channel_datapoint_counts as c (workspace_id, channel_id, dataset_id, day, count)
    select workspace_id, channel_id, dataset_id, day, n from (${deltas}) d where n <> 0 order by channel_id, dataset_id, day
    on conflict (channel_id, dataset_id, day) do update set count = c.count + excluded.count`;
  const lower = `
    update channel_datapoint_counts c set count = c.count + d.n
    from (${grouped('old_rows', '-')} order by 2, 3, 4) d
    where c.channel_id = d.channel_id and c.dataset_id = d.dataset_id and c.day = d.day`;
  const dropEmpty = `
    delete from channel_datapoint_counts c using (select distinct channel_id, dataset_id, (created_at at time zone 'UTC')::date as day from ${rowsOf('old_rows')} r) d
    where c.channel_id = d.channel_id and c.dataset_id = d.dataset_id and c.day = d.day and c.count <= 0`;
  // Row-level security is forced on the counters too: each workspace's counters are written in
  // that workspace's scope, set here from the rows themselves and put back afterwards, so the
  // counters stay right whoever writes (a request in its scope, the owner purging without one).
  const perWorkspace = (rows: string, body: string) => `
      for w in select distinct workspace_id from ${rows} loop
        perform set_config('app.workspace_id', w::text, true);
        ${body};
      end loop;`;
  await knex.raw(`
    create or replace function channel_datapoint_counts_apply() returns trigger language plpgsql as $$
    declare
      w uuid;
      prior text := coalesce(current_setting('app.workspace_id', true), '');
    begin
      if tg_op = 'INSERT' then
        ${perWorkspace('new_rows', upsert(grouped('new_rows', '')))}
      elsif tg_op = 'DELETE' then
        ${perWorkspace('old_rows', `${lower}; ${dropEmpty}`)}
      else
        -- Most updates change neither date, dataset nor channel: their deltas sum to zero and write nothing.
        ${perWorkspace(
          '(select workspace_id from new_rows union select workspace_id from old_rows) u',
          `${upsert(`select workspace_id, channel_id, dataset_id, day, sum(n)::int as n from (${grouped('new_rows', '')} union all ${grouped('old_rows', '-')}) x group by 1, 2, 3, 4`)}; ${dropEmpty}`,
        )}
      end if;
      perform set_config('app.workspace_id', prior, true);
      return null;
    end $$`);
  for (const [op, refs] of [
    ['insert', 'new table as new_rows'],
    ['update', 'new table as new_rows old table as old_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await knex.raw(
      `create trigger channel_datapoint_counts_${op} after ${op} on channel_datapoints referencing ${refs} for each statement execute function channel_datapoint_counts_apply()`,
    );
  }
  // The data points already stored. Row-level security is forced on both tables: the owner counts
  // every workspace's only with it lifted for this statement.
  for (const table of ['channel_datapoints', 'channel_datapoint_counts'])
    await knex.raw('alter table ?? no force row level security', [table]);
  await knex.raw(`insert into channel_datapoint_counts (workspace_id, channel_id, dataset_id, day, count)
    select workspace_id, channel_id, dataset_id, (created_at at time zone 'UTC')::date, count(*) from channel_datapoints group by 1, 2, 3, 4`);
  for (const table of ['channel_datapoints', 'channel_datapoint_counts'])
    await knex.raw('alter table ?? force row level security', [table]);
}

export async function down(knex: Knex): Promise<void> {
  for (const op of ['insert', 'update', 'delete'])
    await knex.raw(`drop trigger if exists channel_datapoint_counts_${op} on channel_datapoints`);
  await knex.raw('drop function if exists channel_datapoint_counts_apply()');
  await knex.schema.dropTableIfExists('channel_datapoint_counts');
}
