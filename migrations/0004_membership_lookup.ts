import type { Knex } from 'knex';

/**
 * Every request addressed to a workspace needs the caller's membership. This function reads it in
 * one round trip instead of a transaction of five: it sets the caller's scope for the rest of the
 * statement's own transaction and reads under row-level security like any other query (it is not
 * SECURITY DEFINER, so it can see nothing the caller could not).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function app_membership(p_workspace uuid, p_user uuid)
    returns table (role text, workspace_admin boolean, group_ids uuid[])
    language plpgsql volatile as $$
    begin
      perform set_config('app.workspace_id', p_workspace::text, true), set_config('app.user_id', p_user::text, true);
      return query
        select m.role::text, m.workspace_admin,
               array(select g.group_id from user_group_members g
                     where g.workspace_id = m.workspace_id and g.user_id = m.user_id order by g.group_id)
        from workspace_members m
        where m.workspace_id = p_workspace and m.user_id = p_user;
    end
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists app_membership(uuid, uuid)');
}
