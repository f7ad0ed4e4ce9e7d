import type { Knex } from 'knex';

/**
 * In the app and by email are independent choices per kind: a notification whose kind a person
 * turned off in-app is still stored, hidden from the notification centre (`in_app` false), so its
 * immediate email or its place in a digest still goes out. Only a notification wanted neither
 * in-app nor by email is dropped, as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.boolean('in_app').notNullable().defaultTo(true);
  });
  await knex.raw(`
    create or replace function notifications_drop_unwanted() returns trigger
    language plpgsql as $$
    begin
      if not notification_wanted(new.user_id, new.type, false) then
        if not notification_wanted(new.user_id, new.type, true) then return null; end if;
        new.in_app := false;
      end if;
      return new;
    end $$`);
  await knex.raw('drop index if exists notifications_unread');
  await knex.raw(
    'create index notifications_unread on notifications (user_id, created_at) where read_at is null and in_app',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists notifications_unread');
  await knex.raw('create index notifications_unread on notifications (user_id, created_at) where read_at is null');
  await knex.raw(`
    create or replace function notifications_drop_unwanted() returns trigger
    language plpgsql as $$
    begin
      if not notification_wanted(new.user_id, new.type, false) then return null; end if;
      return new;
    end $$`);
  await knex.schema.alterTable('notifications', (t) => {
    t.dropColumn('in_app');
  });
}
