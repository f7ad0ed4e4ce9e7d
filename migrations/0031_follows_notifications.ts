import type { Knex } from 'knex';

/**
 * Following projects, insights and tags (000 §3 follow options), per-kind notification
 * preferences, and email digests.
 *
 * - follows: who follows what, with the digest frequency and the three notification options.
 *   Members read the workspace's follows (to notify followers in the change's own transaction) but
 *   write only their own.
 * - notifications gain a dedupe key (one notification per kind+object+recipient+event: a retried
 *   change or a person reached both as mentioned and as follower gets one), the digest frequency
 *   of follow notifications, and when a digest carried them.
 * - notification_preferences: per person and kind, in-app and email on or off; a missing row is
 *   the kind's default. A trigger drops in-app notifications of kinds turned off, whichever part
 *   of the product writes them.
 * - notification_digests: one row per person, frequency and period, written in the transaction
 *   that sends the digest, so a period is emailed once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('follows', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('object_type', 20).notNullable();
    t.uuid('object_id').notNullable();
    t.string('frequency', 10).notNullable().defaultTo('WEEKLY');
    t.boolean('all_changes_enabled').notNullable().defaultTo(false);
    t.boolean('insights_published_enabled').notNullable().defaultTo(true);
    t.boolean('all_comments_enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'object_type', 'object_id', 'user_id']);
    t.index(['workspace_id', 'user_id']);
  });
  await knex.raw(
    `alter table follows add constraint follows_object_type_check check (object_type in ('PROJECT', 'INSIGHT', 'TAG'))`,
  );
  await knex.raw(
    `alter table follows add constraint follows_frequency_check check (frequency in ('MONTHLY', 'WEEKLY', 'DAILY'))`,
  );
  await knex.raw('alter table follows enable row level security');
  await knex.raw('alter table follows force row level security');
  await knex.raw('create policy follows_read on follows for select using (workspace_id = app_workspace_id())');
  for (const op of ['insert', 'update', 'delete'] as const) {
    const own = 'workspace_id = app_workspace_id() and user_id = app_user_id()';
    const clause =
      op === 'insert'
        ? `with check (${own})`
        : op === 'update'
          ? `using (${own}) with check (${own})`
          : `using (${own})`;
    await knex.raw(`create policy follows_${op} on follows for ${op} ${clause}`);
  }

  await knex.schema.alterTable('notifications', (t) => {
    t.string('dedupe_key', 200);
    t.string('digest', 10);
    t.timestamp('digested_at', { useTz: true });
  });
  await knex.raw(
    'create unique index notifications_dedupe on notifications (user_id, dedupe_key) where dedupe_key is not null',
  );
  await knex.raw('create index notifications_unread on notifications (user_id, created_at) where read_at is null');
  await knex.raw(
    'create index notifications_digest_due on notifications (digest, created_at) where digest is not null and digested_at is null',
  );

  await knex.schema.createTable('notification_preferences', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 80).notNullable();
    t.boolean('in_app').notNullable();
    t.boolean('email').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'kind']);
  });
  await knex.raw('alter table notification_preferences enable row level security');
  await knex.raw('alter table notification_preferences force row level security');
  await knex.raw(`create policy own_preferences on notification_preferences
    using (user_id = app_user_id()) with check (user_id = app_user_id())`);

  // Whoever notifies a member must know their choice: members of the current workspace read
  // each other's preferences (as they read notification_settings), and change only their own.
  await knex.raw(`create policy coworker_preferences on notification_preferences for select using (
    exists (select 1 from workspace_members m where m.user_id = notification_preferences.user_id and m.workspace_id = app_workspace_id()))`);
  await knex.raw(`
    create or replace function notification_wanted(p_user uuid, p_kind text, p_email boolean)
    returns boolean language sql stable as $$
      select coalesce((select case when p_email then p.email else p.in_app end
        from notification_preferences p where p.user_id = p_user and p.kind = p_kind), true)
    $$`);
  await knex.raw(`
    create or replace function notifications_drop_unwanted() returns trigger
    language plpgsql as $$
    begin
      if not notification_wanted(new.user_id, new.type, false) then return null; end if;
      return new;
    end $$`);
  await knex.raw(`create trigger notifications_drop_unwanted before insert on notifications
    for each row execute function notifications_drop_unwanted()`);

  await knex.schema.createTable('notification_digests', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('frequency', 10).notNullable();
    t.timestamp('period_start', { useTz: true }).notNullable();
    t.integer('notification_count').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'frequency', 'period_start']);
  });
  await knex.raw('alter table notification_digests enable row level security');
  await knex.raw('alter table notification_digests force row level security');
  await knex.raw(`create policy own_digests on notification_digests
    using (user_id = app_user_id()) with check (user_id = app_user_id())`);

  // Who has follow notifications waiting for a digest of which frequency: only ids, so the
  // digest sweep finds them without reading anyone's notifications (each digest then runs scoped
  // to its person). Written with the notifications, removed once a digest found nothing left.
  await knex.schema.createTable('notification_digest_pending', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('frequency', 10).notNullable();
    t.primary(['user_id', 'frequency']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('notification_digest_pending');
  await knex.schema.dropTableIfExists('notification_digests');
  await knex.raw('drop trigger if exists notifications_drop_unwanted on notifications');
  await knex.raw('drop function if exists notifications_drop_unwanted()');
  await knex.raw('drop function if exists notification_wanted(uuid, text, boolean)');
  await knex.schema.dropTableIfExists('notification_preferences');
  await knex.raw('drop index if exists notifications_digest_due');
  await knex.raw('drop index if exists notifications_unread');
  await knex.raw('drop index if exists notifications_dedupe');
  await knex.schema.alterTable('notifications', (t) => {
    t.dropColumn('digested_at');
    t.dropColumn('digest');
    t.dropColumn('dedupe_key');
  });
  await knex.schema.dropTableIfExists('follows');
}
