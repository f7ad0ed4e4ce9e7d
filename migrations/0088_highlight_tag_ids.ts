import type { Knex } from 'knex';

/**
 * A highlight's tags kept on its own row (`tag_ids`), with a GIN index on them, so a search that
 * filters highlights by tags reads them through one index and combines it with the others (the
 * project's, the text's) in one bitmap, instead of looking every tagged highlight up by its key:
 * counting a tag's 5,000 newest highlights read 20,000 pages that way.
 *
 * `highlight_tags` stays the source of truth; triggers keep the copy in the same transaction as
 * every change to it (one statement per statement, so a bulk import or a tag merge costs one
 * update). The copy is recomputed from `highlight_tags` rather than patched, after locking the
 * highlights concerned: two transactions tagging the same highlight at once then each see the
 * other's committed tag, and neither overwrites it. A new highlight starts with none, whatever
 * its insert says: its taggings can only be inserted after it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table highlights add column tag_ids uuid[] not null default '{}'`);
  await knex.raw(`
    update highlights h set tag_ids = x.ids
      from (select highlight_id, array_agg(tag_id order by tag_id) as ids from highlight_tags group by highlight_id) x
     where x.highlight_id = h.id`);
  await knex.raw('create index highlights_tag_ids on highlights using gin (tag_ids)');

  await knex.raw(`
    create function highlight_tag_ids_refresh(changed uuid[]) returns void language plpgsql as $$
    begin
      -- A statement of its own, so the recount below takes a snapshot after the lock is granted.
      perform 1 from highlights h where h.id = any(changed) order by h.id for update;
      update highlights h
         set tag_ids = coalesce((select array_agg(ht.tag_id order by ht.tag_id) from highlight_tags ht where ht.highlight_id = h.id), '{}')
       where h.id = any(changed)
         and h.tag_ids is distinct from coalesce((select array_agg(ht.tag_id order by ht.tag_id) from highlight_tags ht where ht.highlight_id = h.id), '{}');
    end $$`);
  await knex.raw(`
    create function highlight_tag_ids_inserted() returns trigger language plpgsql as $$
    begin
      perform highlight_tag_ids_refresh(array(select distinct highlight_id from new_rows));
      return null;
    end $$`);
  await knex.raw(`
    create function highlight_tag_ids_deleted() returns trigger language plpgsql as $$
    begin
      perform highlight_tag_ids_refresh(array(select distinct highlight_id from old_rows));
      return null;
    end $$`);
  await knex.raw(`
    create function highlight_tag_ids_updated() returns trigger language plpgsql as $$
    begin
      perform highlight_tag_ids_refresh(array(select highlight_id from new_rows union select highlight_id from old_rows));
      return null;
    end $$`);
  await knex.raw(`
    create function highlight_tag_ids_new_highlight() returns trigger language plpgsql as $$
    begin
      new.tag_ids := '{}';
      return new;
    end $$`);
  await knex.raw(`create trigger highlight_tag_ids_insert after insert on highlight_tags
    referencing new table as new_rows for each statement execute function highlight_tag_ids_inserted()`);
  await knex.raw(`create trigger highlight_tag_ids_delete after delete on highlight_tags
    referencing old table as old_rows for each statement execute function highlight_tag_ids_deleted()`);
  await knex.raw(`create trigger highlight_tag_ids_update after update on highlight_tags
    referencing old table as old_rows new table as new_rows for each statement execute function highlight_tag_ids_updated()`);
  await knex.raw(
    `create trigger highlight_tag_ids_new before insert on highlights for each row execute function highlight_tag_ids_new_highlight()`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists highlight_tag_ids_new on highlights');
  for (const op of ['insert', 'delete', 'update'])
    await knex.raw(`drop trigger if exists highlight_tag_ids_${op} on highlight_tags`);
  for (const fn of ['inserted', 'deleted', 'updated', 'new_highlight'])
    await knex.raw(`drop function if exists highlight_tag_ids_${fn}()`);
  await knex.raw('drop function if exists highlight_tag_ids_refresh(uuid[])');
  await knex.raw('drop index if exists highlights_tag_ids');
  await knex.raw('alter table highlights drop column if exists tag_ids');
}
