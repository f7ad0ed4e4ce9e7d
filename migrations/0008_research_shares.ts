import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Public share links (000 §1, §3): a 12-character token that opens one object to anyone who has
 * it, without signing in.
 *
 * An anonymous request has no workspace, and row-level security shows no tenant row without one,
 * so the token itself has to find its workspace. Rather than a second, unprotected registry of
 * tokens (one more copy to keep in step on revoke) or a SECURITY DEFINER function (which still
 * obeys forced row-level security when its owner is not a superuser), `shares` gets one extra
 * read-only policy: a transaction that declares a token in `app.share_token` may read the one row
 * carrying that token, the way an invitee reads the invites addressed to their email. Nothing
 * else becomes readable: knowing a token is exactly what being allowed to open its link means.
 * The shared object is then read in a transaction scoped to the share's workspace.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function app_share_token() returns text language sql stable as $$
      select nullif(current_setting('app.share_token', true), '')
    $$`);

  await knex.schema.createTable('shares', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('token', 12).notNullable().unique();
    t.string('object_type', 30).notNullable();
    t.uuid('object_id').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['workspace_id', 'object_type', 'object_id', 'created_at']);
  });
  await knex.raw(`alter table shares add constraint shares_token_check check (token ~ '^[A-Za-z0-9]{12}$')`);
  await knex.raw(`alter table shares add constraint shares_object_type_check
    check (object_type in ('insight', 'note', 'noteHighlight', 'project', 'projectReadme'))`);
  // The 17000-character cap counts the client's serialisation, which the server checks; jsonb
  // prints with extra spaces, so the database only insists on the shape.
  await knex.raw(`alter table shares add constraint shares_payload_check check (jsonb_typeof(payload) = 'object')`);
  await enableTenantRls(knex, 'shares', 'token = app_share_token()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('shares');
  await knex.raw('drop function if exists app_share_token()');
}
