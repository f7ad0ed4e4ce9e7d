import type { Knex } from 'knex';

/**
 * What workspace creation records beyond 0001 (the promo code and the template to install), and
 * checks that keep roles and regions to their enumerations whatever writes them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.string('promo', 100);
    t.uuid('install_template_id');
  });
  await knex.raw(
    `alter table workspaces add constraint workspaces_region_check check (region in ('US_A', 'US_B', 'EU_A', 'AU_A'))`,
  );
  await knex.raw(
    `alter table workspace_members add constraint workspace_members_role_check check (role in ('VIEWER', 'CONTRIBUTOR', 'MANAGER'))`,
  );
  await knex.raw(
    `alter table workspace_members add constraint workspace_members_joined_via_check check (joined_via in ('CREATE', 'INVITE', 'DOMAIN'))`,
  );
  await knex.raw(
    `alter table invites add constraint invites_role_check check (role in ('VIEWER', 'CONTRIBUTOR', 'MANAGER'))`,
  );
  await knex.raw('create index user_group_members_user on user_group_members (workspace_id, user_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists user_group_members_user');
  await knex.raw('alter table invites drop constraint if exists invites_role_check');
  await knex.raw('alter table workspace_members drop constraint if exists workspace_members_joined_via_check');
  await knex.raw('alter table workspace_members drop constraint if exists workspace_members_role_check');
  await knex.raw('alter table workspaces drop constraint if exists workspaces_region_check');
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('install_template_id');
    t.dropColumn('promo');
  });
}
