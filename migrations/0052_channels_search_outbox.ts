import type { Knex } from 'knex';

/**
 * Channels and data points in the search outbox (see 0014_search_outbox.ts), so an external
 * index (Typesense) follows them as it follows the research tables: a statement-level trigger per
 * table names every changed item, and trashing or restoring a channel names its data points,
 * whose documents follow their channel's trash state.
 */
interface Watch {
  table: string;
  items: string[];
  moved?: string[];
}

const WATCHES: Watch[] = [
  {
    table: 'channels',
    items: [`select r.workspace_id, 'CHANNEL', r.id from {rows} r`],
    moved: [
      `select d.workspace_id, 'CHANNEL_DATAPOINT', d.id from new_rows n join old_rows o on o.id = n.id join channel_datapoints d on d.channel_id = n.id
        where n.deleted_at is distinct from o.deleted_at`,
    ],
  },
  { table: 'channel_datapoints', items: [`select r.workspace_id, 'CHANNEL_DATAPOINT', r.id from {rows} r`] },
];

// The same function 0014 writes for each research table.
function triggerFunction(watch: Watch): string {
  const insert = (selects: string[]) =>
    `with added as (
       insert into search_changes (workspace_id, object_type, object_id)
       select distinct c.workspace_id, c.object_type, c.object_id from (${selects.join('\n union all ')}) c(workspace_id, object_type, object_id)
       returning workspace_id)
     select coalesce(array_agg(distinct workspace_id::text), '{}') into touched from added;`;
  const of = (rows: string) => watch.items.map((s) => s.replaceAll('{rows}', rows));
  return `
    create or replace function search_changes_${watch.table}() returns trigger language plpgsql as $$
    declare touched text[];
    begin
      if not exists (select from search_outbox_switch) then return null; end if;
      if tg_op = 'INSERT' then
        ${insert(of('new_rows'))}
      elsif tg_op = 'DELETE' then
        ${insert(of('old_rows'))}
      else
        ${insert([...of('new_rows'), ...of('old_rows'), ...(watch.moved ?? [])])}
      end if;
      perform pg_notify('fieldbook_invalidate', 'search-changes:' || w) from unnest(touched) w;
      return null;
    end $$`;
}

export async function up(knex: Knex): Promise<void> {
  for (const watch of WATCHES) {
    await knex.raw(triggerFunction(watch));
    const fn = `search_changes_${watch.table}`;
    await knex.raw(
      `create trigger ${fn}_insert after insert on ${watch.table} referencing new table as new_rows for each statement execute function ${fn}()`,
    );
    await knex.raw(
      `create trigger ${fn}_update after update on ${watch.table} referencing new table as new_rows old table as old_rows for each statement execute function ${fn}()`,
    );
    await knex.raw(
      `create trigger ${fn}_delete after delete on ${watch.table} referencing old table as old_rows for each statement execute function ${fn}()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const watch of WATCHES) {
    for (const op of ['insert', 'update', 'delete'])
      await knex.raw(`drop trigger if exists search_changes_${watch.table}_${op} on ${watch.table}`);
    await knex.raw(`drop function if exists search_changes_${watch.table}()`);
  }
}
