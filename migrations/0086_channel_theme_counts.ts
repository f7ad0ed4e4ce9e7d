import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Data points counted per theme and day (UTC), so a theme's count, its chart, the themes list and
 * the emerging themes read a few hundred counter rows rather than every member of every theme.
 *
 * A membership carries its data point's date (`created_at`, filled from the point when a writer
 * leaves it out, and moved with the point when an import changes the point's date), so the
 * counters can be kept from the memberships alone: a statement-level trigger keeps them in the
 * transaction that places, moves, merges, splits, re-clusters or deletes (a point's cascade
 * included). Outliers (no theme) are not counted here: their page counts its own rows.
 *
 * Lowering a counter never inserts one: when a channel goes, its themes' counters may be gone
 * before the memberships' SET NULL arrives, and a counter row for a deleted theme could not be
 * written anyway.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table channel_theme_members add column created_at timestamptz');
  // Row-level security is forced: the owner fills every workspace's memberships with it lifted.
  for (const table of ['channel_datapoints', 'channel_theme_members'])
    await knex.raw('alter table ?? no force row level security', [table]);
  await knex.raw(
    'update channel_theme_members m set created_at = d.created_at from channel_datapoints d where d.id = m.datapoint_id',
  );
  for (const table of ['channel_datapoints', 'channel_theme_members'])
    await knex.raw('alter table ?? force row level security', [table]);

  await knex.raw(`
    create or replace function channel_theme_members_fill_date() returns trigger language plpgsql as $$
    begin
      if new.created_at is null then
        select d.created_at into new.created_at from channel_datapoints d where d.id = new.datapoint_id;
      end if;
      return new;
    end $$`);
  await knex.raw(
    'create trigger channel_theme_members_fill_date before insert on channel_theme_members for each row execute function channel_theme_members_fill_date()',
  );
  await knex.raw('alter table channel_theme_members alter column created_at set not null');
  // Rare (an import giving a record a new date): only rows whose date changed fire it.
  await knex.raw(`
    create or replace function channel_datapoints_move_member_date() returns trigger language plpgsql as $$
    declare
      prior text := coalesce(current_setting('app.workspace_id', true), '');
    begin
      -- In the point's own workspace scope, whoever moves it (an owner's update has none).
      perform set_config('app.workspace_id', new.workspace_id::text, true);
      update channel_theme_members set created_at = new.created_at where datapoint_id = new.id;
      perform set_config('app.workspace_id', prior, true);
      return null;
    end $$`);
  await knex.raw(`create trigger channel_datapoints_move_member_date after update of created_at on channel_datapoints
    for each row when (old.created_at is distinct from new.created_at) execute function channel_datapoints_move_member_date()`);

  // A theme's points newest first, by the index alone (the theme page's first page at any size).
  await knex.raw(
    'create index channel_theme_members_theme_created on channel_theme_members (workspace_id, theme_id, created_at, datapoint_id)',
  );
  await knex.raw('drop index if exists channel_theme_members_workspace_id_theme_id_index');

  await knex.schema.createTable('channel_theme_counts', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('channel_id').notNullable().references('channels.id').onDelete('CASCADE');
    t.uuid('theme_id').notNullable().references('channel_themes.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('count').notNullable();
    t.primary(['theme_id', 'day']);
    t.index(['channel_id', 'day']);
  });
  await enableTenantRls(knex, 'channel_theme_counts');

  const grouped = (rows: string, sign: string) =>
    `select workspace_id, channel_id, theme_id, (created_at at time zone 'UTC')::date as day, ${sign}count(*)::int as n
     from (select * from ${rows} where workspace_id = w and theme_id is not null) r group by 1, 2, 3, 4`;
  // Keys in one order so concurrent writers to the same counters wait, not deadlock.
  const raise = (deltas: string) => `
    insert into channel_theme_counts as c (workspace_id, channel_id, theme_id, day, count)
    select workspace_id, channel_id, theme_id, day, n from (${deltas}) d where n > 0 order by theme_id, day
    on conflict (theme_id, day) do update set count = c.count + excluded.count`;
  const lower = (deltas: string) => `
    update channel_theme_counts c set count = c.count + d.n
    from (select * from (${deltas}) x where n < 0 order by theme_id, day) d
    where c.theme_id = d.theme_id and c.day = d.day`;
  const dropEmpty = `
    delete from channel_theme_counts c
    using (select distinct theme_id, (created_at at time zone 'UTC')::date as day from old_rows where workspace_id = w and theme_id is not null) d
    where c.theme_id = d.theme_id and c.day = d.day and c.count <= 0`;
  // Each workspace's counters are written in that workspace's scope (row-level security is
  // forced on them), set from the rows themselves and put back afterwards.
  const perWorkspace = (rows: string, body: string) => `
      for w in select distinct workspace_id from ${rows} loop
        perform set_config('app.workspace_id', w::text, true);
        ${body};
      end loop;`;
  const net = `select workspace_id, channel_id, theme_id, day, sum(n)::int as n from (${grouped('new_rows', '')} union all ${grouped('old_rows', '-')}) x group by 1, 2, 3, 4`;
  await knex.raw(`
    create or replace function channel_theme_counts_apply() returns trigger language plpgsql as $$
    declare
      w uuid;
      prior text := coalesce(current_setting('app.workspace_id', true), '');
    begin
      if tg_op = 'INSERT' then
        ${perWorkspace('new_rows', raise(grouped('new_rows', '')))}
      elsif tg_op = 'DELETE' then
        ${perWorkspace('old_rows', `${lower(grouped('old_rows', '-'))}; ${dropEmpty}`)}
      else
        -- A re-placement in the same theme on the same day sums to zero and writes nothing.
        ${perWorkspace('(select workspace_id from new_rows union select workspace_id from old_rows) u', `${lower(net)}; ${raise(net)}; ${dropEmpty}`)}
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
      `create trigger channel_theme_counts_${op} after ${op} on channel_theme_members referencing ${refs} for each statement execute function channel_theme_counts_apply()`,
    );
  }

  for (const table of ['channel_theme_members', 'channel_theme_counts'])
    await knex.raw('alter table ?? no force row level security', [table]);
  await knex.raw(`insert into channel_theme_counts (workspace_id, channel_id, theme_id, day, count)
    select workspace_id, channel_id, theme_id, (created_at at time zone 'UTC')::date, count(*) from channel_theme_members where theme_id is not null group by 1, 2, 3, 4`);
  for (const table of ['channel_theme_members', 'channel_theme_counts'])
    await knex.raw('alter table ?? force row level security', [table]);
}

export async function down(knex: Knex): Promise<void> {
  for (const op of ['insert', 'update', 'delete'])
    await knex.raw(`drop trigger if exists channel_theme_counts_${op} on channel_theme_members`);
  await knex.raw('drop function if exists channel_theme_counts_apply()');
  await knex.schema.dropTableIfExists('channel_theme_counts');
  await knex.raw(
    'create index if not exists channel_theme_members_workspace_id_theme_id_index on channel_theme_members (workspace_id, theme_id)',
  );
  await knex.raw('drop index if exists channel_theme_members_theme_created');
  await knex.raw('drop trigger if exists channel_datapoints_move_member_date on channel_datapoints');
  await knex.raw('drop function if exists channel_datapoints_move_member_date()');
  await knex.raw('drop trigger if exists channel_theme_members_fill_date on channel_theme_members');
  await knex.raw('drop function if exists channel_theme_members_fill_date()');
  await knex.raw('alter table channel_theme_members drop column if exists created_at');
}
