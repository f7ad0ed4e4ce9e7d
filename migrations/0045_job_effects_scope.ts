import type { Knex } from 'knex';

/**
 * Job effect records belong to the workspace whose work they record. Before, any caller of the
 * request role could insert a key of another workspace's future effect (the keys are predictable:
 * `project-export:{id}`) and so make that job skip its effect. Now a record carries the workspace
 * its transaction is scoped to, a key is unique within its workspace only, and row-level security
 * lets a transaction see and claim only its own workspace's records. Records of work done outside
 * any workspace keep a null workspace, visible only to transactions without one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table job_effects add column workspace_id uuid default app_workspace_id()');
  await knex.raw('alter table job_effects drop constraint job_effects_pkey');
  await knex.raw(
    `create unique index job_effects_scope_key on job_effects (coalesce(workspace_id, '00000000-0000-0000-0000-000000000000'::uuid), key)`,
  );
  await knex.raw('alter table job_effects enable row level security');
  await knex.raw('alter table job_effects force row level security');
  await knex.raw(`create policy job_effects_scope on job_effects
    using (workspace_id is not distinct from app_workspace_id())
    with check (workspace_id is not distinct from app_workspace_id())`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop policy if exists job_effects_scope on job_effects');
  await knex.raw('alter table job_effects no force row level security');
  await knex.raw('alter table job_effects disable row level security');
  await knex.raw('drop index if exists job_effects_scope_key');
  await knex.raw('delete from job_effects a using job_effects b where a.key = b.key and a.ctid < b.ctid');
  await knex.raw('alter table job_effects add primary key (key)');
  await knex.raw('alter table job_effects drop column workspace_id');
}
