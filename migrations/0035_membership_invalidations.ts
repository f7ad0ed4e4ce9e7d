import type { Knex } from 'knex';

/**
 * Every process keeps the memberships and workspaces that requests look up in memory, so a
 * request reads neither. These triggers tell every process when one changes, through the same
 * `fieldbook_invalidate` channel as sessions (core/src/db/invalidations.ts). NOTIFY is sent when
 * the transaction commits and not at all when it rolls back, and the triggers see every way a row
 * changes, cascades included (a group, a person or a workspace deleted), not only the resolvers
 * that are known to change it.
 *
 * Payloads: `membership:<workspace id>:<user id>` and `workspace:<workspace id>`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function notify_membership_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform pg_notify('fieldbook_invalidate', 'membership:' || old.workspace_id || ':' || old.user_id);
      end if;
      if tg_op <> 'DELETE' then
        perform pg_notify('fieldbook_invalidate', 'membership:' || new.workspace_id || ':' || new.user_id);
      end if;
      return null;
    end $$`);
  for (const table of ['workspace_members', 'user_group_members']) {
    await knex.raw(`create trigger ${table}_invalidate after insert or update or delete on ${table}
      for each row execute function notify_membership_changed()`);
  }
  await knex.raw(`
    create function notify_workspace_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('fieldbook_invalidate', 'workspace:' || old.id);
      return null;
    end $$`);
  // Only the columns a request's workspace carries (core/src/kernel/request-context.ts WorkspaceRef).
  await knex.raw(`create trigger workspaces_invalidate after update of name, subdomain, region or delete on workspaces
    for each row execute function notify_workspace_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists workspaces_invalidate on workspaces');
  await knex.raw('drop function if exists notify_workspace_changed()');
  for (const table of ['workspace_members', 'user_group_members'])
    await knex.raw(`drop trigger if exists ${table}_invalidate on ${table}`);
  await knex.raw('drop function if exists notify_membership_changed()');
}
