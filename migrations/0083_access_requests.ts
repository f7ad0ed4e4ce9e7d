import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Requests for access to a restricted project (001 §3.8 "Access request: role, accessRequestId"):
 * a member who cannot read a project asks for Viewer or Contributor access; a person managing the
 * project approves (the grant lands in the project's permission map) or denies. At most one
 * request per person and project is pending at a time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('access_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role', 12).notNullable();
    t.text('message');
    t.string('status', 10).notNullable().defaultTo('PENDING');
    t.uuid('decided_by').references('users.id').onDelete('SET NULL');
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'project_id', 'status']);
  });
  await knex.raw(
    `alter table access_requests add constraint access_requests_role_check check (role in ('VIEWER', 'CONTRIBUTOR'))`,
  );
  await knex.raw(
    `alter table access_requests add constraint access_requests_status_check check (status in ('PENDING', 'APPROVED', 'DENIED'))`,
  );
  await knex.raw(
    `create unique index access_requests_one_pending on access_requests (project_id, user_id) where status = 'PENDING'`,
  );
  await enableTenantRls(knex, 'access_requests');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('access_requests');
}
