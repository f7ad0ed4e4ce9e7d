import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * What the AI steps of 002 §3 (summarize, highlights, tags, redact, insights) did with each
 * version of a note's content: one row per step and content version, which is what makes a run
 * idempotent (a retried or repeated job finds its row and does nothing). A row says what ran, in
 * which mode, what it made (or why it was skipped), and keeps what undoing or accepting it needs.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ai_step_runs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('note_id').notNullable().references('notes.id').onDelete('CASCADE');
    t.text('content_hash').notNullable();
    t.string('step', 20).notNullable();
    t.string('mode', 10).notNullable();
    t.string('status', 10).notNullable();
    t.text('detail').notNullable().defaultTo('');
    t.text('reason');
    t.jsonb('result').notNullable().defaultTo(knex.raw(`'{}'::jsonb`));
    t.text('model');
    t.uuid('decided_by').references('users.id').onDelete('SET NULL');
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'note_id', 'content_hash', 'step']);
    t.index(['workspace_id', 'note_id', 'created_at']);
  });
  await knex.raw(
    `alter table ai_step_runs add constraint ai_step_runs_step_check check (step in ('summarize', 'highlights', 'tags', 'redact', 'insights'))`,
  );
  await knex.raw(`alter table ai_step_runs add constraint ai_step_runs_mode_check check (mode in ('On', 'Suggest'))`);
  await knex.raw(
    `alter table ai_step_runs add constraint ai_step_runs_status_check check (status in ('RUNNING', 'DONE', 'PENDING', 'ACCEPTED', 'REJECTED', 'UNDONE', 'SKIPPED', 'FAILED'))`,
  );
  await enableTenantRls(knex, 'ai_step_runs');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ai_step_runs');
}
