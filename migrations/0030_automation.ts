import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Note tags and the automation module's tables.
 *
 * - note_tags: a note's tags, as highlight_tags are a highlight's (automations' addTag applies them).
 * - automations: a trigger (an event with rules, or a schedule), ordered actions, the member it acts
 *   as (owner_id), the project it is scoped to (null: workspace-wide), and why it stopped when the
 *   system disabled it. next_run_at is the next due occurrence of a schedule.
 * - automation_events: each event automations saw, its payload stored once for all their runs.
 * - automation_runs: one per automation and event (unique: a redelivered event runs nothing twice),
 *   with the rule result, status, error and timing; dry runs are kept too, flagged.
 * - automation_run_actions: each action of a run, its attempts, output or error.
 * - automation_settings: per workspace, the time zone schedules are read in and the runs per minute.
 * - automation_rate: runs started per workspace and minute, for that limit.
 */
export async function up(knex: Knex): Promise<void> {
  const workspace = (t: Knex.CreateTableBuilder) =>
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');

  await knex.schema.createTable('note_tags', (t) => {
    workspace(t);
    t.uuid('note_id').notNullable().references('notes.id').onDelete('CASCADE');
    t.uuid('tag_id').notNullable().references('tags.id').onDelete('CASCADE');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['note_id', 'tag_id']);
    t.index(['tag_id', 'note_id']);
  });
  await enableTenantRls(knex, 'note_tags');

  await knex.schema.createTable('automations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    workspace(t);
    t.text('title').notNullable();
    t.uuid('owner_id').references('users.id').onDelete('SET NULL');
    t.uuid('project_id').references('projects.id').onDelete('CASCADE');
    t.text('trigger_type').notNullable();
    t.text('event_key').notNullable();
    t.jsonb('trigger').notNullable();
    t.jsonb('actions').notNullable().defaultTo('[]');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.timestamp('next_run_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Dispatch reads a workspace's enabled automations of one event.
    t.index(['workspace_id', 'event_key', 'enabled']);
  });
  await knex.raw(
    `alter table automations add constraint automations_title_check check (char_length(title) between 1 and 255)`,
  );
  await knex.raw(
    `alter table automations add constraint automations_trigger_type_check check (trigger_type in ('Event', 'Schedule'))`,
  );
  await knex.raw(
    `create index automations_due on automations (next_run_at) where enabled and trigger_type = 'Schedule'`,
  );
  await enableTenantRls(knex, 'automations');

  await knex.schema.createTable('automation_events', (t) => {
    t.text('id').primary();
    workspace(t);
    t.text('event_key').notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
  });
  await enableTenantRls(knex, 'automation_events');

  await knex.schema.createTable('automation_runs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    workspace(t);
    t.uuid('automation_id').notNullable().references('automations.id').onDelete('CASCADE');
    t.text('event_id').notNullable().references('automation_events.id').onDelete('CASCADE');
    t.text('event_key').notNullable();
    t.boolean('rule_result').notNullable();
    t.text('status').notNullable();
    t.text('error');
    t.boolean('dry_run').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.integer('duration_ms');
    t.unique(['automation_id', 'event_id']);
    t.index(['workspace_id', 'automation_id', 'created_at']);
  });
  await knex.raw(
    `alter table automation_runs add constraint automation_runs_status_check check (status in ('queued', 'running', 'succeeded', 'failed', 'skipped', 'dry_run'))`,
  );
  await enableTenantRls(knex, 'automation_runs');

  await knex.schema.createTable('automation_run_actions', (t) => {
    workspace(t);
    t.uuid('run_id').notNullable().references('automation_runs.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('action_type').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('output');
    t.text('error');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.integer('duration_ms');
    t.primary(['run_id', 'position']);
  });
  await knex.raw(
    `alter table automation_run_actions add constraint automation_run_actions_status_check check (status in ('pending', 'running', 'succeeded', 'failed', 'skipped', 'would_run'))`,
  );
  await enableTenantRls(knex, 'automation_run_actions');

  await knex.schema.createTable('automation_settings', (t) => {
    t.uuid('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.text('time_zone').notNullable().defaultTo('UTC');
    t.integer('runs_per_minute').notNullable().defaultTo(600);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `alter table automation_settings add constraint automation_settings_runs_check check (runs_per_minute between 1 and 100000)`,
  );
  await enableTenantRls(knex, 'automation_settings');

  await knex.schema.createTable('automation_rate', (t) => {
    workspace(t);
    t.timestamp('minute', { useTz: true }).notNullable();
    t.integer('runs').notNullable().defaultTo(0);
    t.primary(['workspace_id', 'minute']);
  });
  await enableTenantRls(knex, 'automation_rate');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'automation_rate',
    'automation_settings',
    'automation_run_actions',
    'automation_runs',
    'automation_events',
    'automations',
    'note_tags',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
