import type { Knex } from 'knex';
import { createScopeFunctions, enableTenantRls } from './lib/rls.ts';

/**
 * Identity, workspaces, membership, groups, invites, API tokens, audit log and notifications.
 * Users and their sessions are global (a person signs in once and belongs to many workspaces);
 * everything a workspace owns carries `workspace_id` under forced row-level security.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pgcrypto');
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw('create extension if not exists unaccent');
  await createScopeFunctions(knex);

  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('users', (t) => {
    id(t);
    t.string('email', 320).notNullable();
    t.string('name', 100).notNullable().defaultTo('');
    t.text('password_hash');
    t.timestamp('email_confirmed_at', { useTz: true });
    t.integer('failed_login_count').notNullable().defaultTo(0);
    t.timestamp('locked_at', { useTz: true });
    t.jsonb('preferences').notNullable().defaultTo('{}');
    stamps(t);
  });
  await knex.raw('create unique index users_email_unique on users (lower(email))');

  await knex.schema.createTable('user_identities', (t) => {
    id(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('provider', 100).notNullable();
    t.string('subject', 255).notNullable();
    t.string('connection_strategy', 50).notNullable();
    t.unique(['provider', 'subject']);
    stamps(t);
  });

  await knex.schema.createTable('sessions', (t) => {
    id(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE').index();
    t.string('refresh_token_hash', 64).notNullable().unique();
    t.string('user_agent', 500);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    stamps(t);
  });

  // One-time codes, confirmation links, reset links, magic links and unlock links.
  await knex.schema.createTable('email_challenges', (t) => {
    id(t); // the code challenge handed to the client
    t.string('email', 320).notNullable();
    t.string('purpose', 30).notNullable();
    t.string('secret_hash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    stamps(t);
    t.index(['email', 'purpose']);
  });

  // The tenant registry: resolving a subdomain happens before any workspace scope exists.
  await knex.schema.createTable('workspaces', (t) => {
    id(t);
    t.string('name', 200).notNullable();
    t.string('subdomain', 63).notNullable().unique();
    t.string('region', 10).notNullable().defaultTo('US_B');
    t.string('logo_url', 2000);
    t.string('primary_color', 7);
    t.specificType('allowed_domains', 'text[]').notNullable().defaultTo('{}');
    t.boolean('allow_enterprise_auth').notNullable().defaultTo(false);
    t.boolean('enforce_enterprise_auth').notNullable().defaultTo(false);
    t.boolean('disable_data_out_integrations').notNullable().defaultTo(false);
    t.boolean('public_links_disabled').notNullable().defaultTo(false);
    t.integer('idle_session_lifetime_seconds');
    t.integer('absolute_session_lifetime_seconds');
    t.string('org_size', 20);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    stamps(t);
  });
  await knex.raw('create index workspaces_allowed_domains on workspaces using gin (allowed_domains)');

  await knex.schema.createTable('workspace_members', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role', 20).notNullable(); // VIEWER | CONTRIBUTOR | MANAGER
    t.boolean('workspace_admin').notNullable().defaultTo(false);
    t.string('joined_via', 20).notNullable().defaultTo('CREATE'); // CREATE | INVITE | DOMAIN
    stamps(t);
    t.primary(['workspace_id', 'user_id']);
    t.index(['user_id']);
  });
  // People may list the workspaces they belong to (the workspace chooser) without a scope.
  await enableTenantRls(knex, 'workspace_members', 'user_id = app_user_id()');

  await knex.schema.createTable('user_groups', (t) => {
    id(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    stamps(t);
    t.unique(['workspace_id', 'name']);
  });
  await enableTenantRls(knex, 'user_groups');

  await knex.schema.createTable('user_group_members', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('group_id').notNullable().references('user_groups.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['group_id', 'user_id']);
  });
  await enableTenantRls(knex, 'user_group_members');

  await knex.schema.createTable('invites', (t) => {
    id(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('email', 320).notNullable();
    t.string('role', 20).notNullable();
    t.boolean('workspace_admin').notNullable().defaultTo(false);
    t.string('message', 500);
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    stamps(t);
    t.index(['workspace_id', 'email']);
  });
  await knex.raw('create index invites_email on invites (lower(email))');
  // An invitee sees the invites addressed to them (the INVITE kind of available teams).
  await enableTenantRls(knex, 'invites', 'lower(email) = app_email()');

  await knex.schema.createTable('api_tokens', (t) => {
    id(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('secret_hash', 64).notNullable().unique();
    t.string('last_four', 4).notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    stamps(t);
  });
  await enableTenantRls(knex, 'api_tokens');

  await knex.schema.createTable('audit_log', (t) => {
    id(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.string('kind', 50).notNullable();
    t.string('subject_type', 50);
    t.string('subject_id', 100);
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
  });
  await enableTenantRls(knex, 'audit_log');

  // In-app notifications belong to a person; workspace-less ones (account locked) have no workspace.
  await knex.schema.createTable('notifications', (t) => {
    id(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.string('type', 80).notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('read_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });
  await knex.raw('alter table notifications enable row level security');
  await knex.raw('alter table notifications force row level security');
  await knex.raw(`create policy own_notifications on notifications
    using (user_id = app_user_id()) with check (user_id = app_user_id())`);

  // Effects of jobs are recorded by key so a retried job never applies twice.
  await knex.schema.createTable('job_effects', (t) => {
    t.string('key', 300).primary();
    t.string('queue', 100).notNullable();
    t.jsonb('result').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'job_effects',
    'notifications',
    'audit_log',
    'api_tokens',
    'invites',
    'user_group_members',
    'user_groups',
    'workspace_members',
    'workspaces',
    'email_challenges',
    'sessions',
    'user_identities',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
