import type { Knex } from 'knex';

/**
 * Themes in universal search (000 §3: THEME, the Themes tab), as 0051 and 0052 do it for channels
 * and data points: a stored generated vector of the title (weight A) and summary (B) with a GIN
 * index, a trigram index on the title for typo-tolerant matches, and the search outbox naming
 * every changed theme (and a channel's themes when it is trashed or restored) for Typesense.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table channel_themes add column search_vector tsvector generated always as (
    setweight(to_tsvector('fb_search'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('fb_search'::regconfig, coalesce(summary, '')), 'B')
  ) stored`);
  await knex.raw('create index channel_themes_search_vector on channel_themes using gin (search_vector)');
  await knex.raw(
    'create index channel_themes_title_search_trgm on channel_themes using gin (fb_search_text(title) gin_trgm_ops)',
  );

  await knex.raw(outboxFunction('channel_themes', [`select r.workspace_id, 'THEME', r.id from {rows} r`], []));
  // The channels function of 0052, now also naming the themes of a trashed or restored channel.
  await knex.raw(
    outboxFunction(
      'channels',
      [`select r.workspace_id, 'CHANNEL', r.id from {rows} r`],
      [
        `select d.workspace_id, 'CHANNEL_DATAPOINT', d.id from new_rows n join old_rows o on o.id = n.id join channel_datapoints d on d.channel_id = n.id
          where n.deleted_at is distinct from o.deleted_at`,
        `select h.workspace_id, 'THEME', h.id from new_rows n join old_rows o on o.id = n.id join channel_themes h on h.channel_id = n.id
          where n.deleted_at is distinct from o.deleted_at`,
      ],
    ),
  );
  const fn = 'search_changes_channel_themes';
  await knex.raw(
    `create trigger ${fn}_insert after insert on channel_themes referencing new table as new_rows for each statement execute function ${fn}()`,
  );
  await knex.raw(
    `create trigger ${fn}_update after update on channel_themes referencing new table as new_rows old table as old_rows for each statement execute function ${fn}()`,
  );
  await knex.raw(
    `create trigger ${fn}_delete after delete on channel_themes referencing old table as old_rows for each statement execute function ${fn}()`,
  );
}

// The function 0014 and 0052 write for each watched table.
function outboxFunction(table: string, items: string[], moved: string[]): string {
  const insert = (selects: string[]) =>
    `with added as (
       insert into search_changes (workspace_id, object_type, object_id)
       select distinct c.workspace_id, c.object_type, c.object_id from (${selects.join('\n union all ')}) c(workspace_id, object_type, object_id)
       returning workspace_id)
     select coalesce(array_agg(distinct workspace_id::text), '{}') into touched from added;`;
  const of = (rows: string) => items.map((s) => s.replaceAll('{rows}', rows));
  return `
    create or replace function search_changes_${table}() returns trigger language plpgsql as $$
    declare touched text[];
    begin
      if not exists (select from search_outbox_switch) then return null; end if;
      if tg_op = 'INSERT' then
        ${insert(of('new_rows'))}
      elsif tg_op = 'DELETE' then
        ${insert(of('old_rows'))}
      else
        ${insert([...of('new_rows'), ...of('old_rows'), ...moved])}
      end if;
      perform pg_notify('fieldbook_invalidate', 'search-changes:' || w) from unnest(touched) w;
      return null;
    end $$`;
}

export async function down(knex: Knex): Promise<void> {
  for (const op of ['insert', 'update', 'delete'])
    await knex.raw(`drop trigger if exists search_changes_channel_themes_${op} on channel_themes`);
  await knex.raw('drop function if exists search_changes_channel_themes()');
  await knex.raw(
    outboxFunction(
      'channels',
      [`select r.workspace_id, 'CHANNEL', r.id from {rows} r`],
      [
        `select d.workspace_id, 'CHANNEL_DATAPOINT', d.id from new_rows n join old_rows o on o.id = n.id join channel_datapoints d on d.channel_id = n.id
          where n.deleted_at is distinct from o.deleted_at`,
      ],
    ),
  );
  await knex.raw('drop index if exists channel_themes_title_search_trgm');
  await knex.raw('drop index if exists channel_themes_search_vector');
  await knex.raw('alter table channel_themes drop column if exists search_vector');
}
