import type { Knex } from 'knex';

/**
 * Functions the policies use. Missing settings read as NULL (never a cast error), and NULL never
 * equals a workspace id, so a transaction without a scope sees no tenant rows at all.
 */
export async function createScopeFunctions(knex: Knex): Promise<void> {
  for (const name of ['workspace_id', 'user_id']) {
    await knex.raw(`
      create or replace function app_${name}() returns uuid language sql stable as $$
        select nullif(current_setting('app.${name}', true), '')::uuid
      $$`);
  }
  await knex.raw(`
    create or replace function app_email() returns text language sql stable as $$
      select nullif(current_setting('app.email', true), '')
    $$`);
}

/**
 * Turns on forced row-level security for a workspace-owned table. `extraRead` widens what may be
 * read (never written) beyond the current workspace, e.g. a user's own memberships.
 */
export async function enableTenantRls(knex: Knex, table: string, extraRead?: string): Promise<void> {
  await knex.raw(`alter table ?? enable row level security`, [table]);
  await knex.raw(`alter table ?? force row level security`, [table]);
  await knex.raw(
    `create policy tenant_isolation on ?? using (workspace_id = app_workspace_id()) with check (workspace_id = app_workspace_id())`,
    [table],
  );
  if (extraRead) {
    await knex.raw(`create policy tenant_extra_read on ?? for select using (${extraRead})`, [table]);
  }
}
