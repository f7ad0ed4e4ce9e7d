import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Suggested highlights (001 §4, 002 §3 mode "Suggest"): passages of a note that AI (or, with no
 * model, the text's key sentences) proposes, kept until a person accepts one, which makes it a
 * highlight, or rejects it. The status is the record of that decision.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('highlight_suggestions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('note_id').notNullable().references('notes.id').onDelete('CASCADE');
    t.integer('start_offset').notNullable();
    t.integer('end_offset').notNullable();
    t.text('text').notNullable();
    t.text('reason');
    t.string('status', 10).notNullable().defaultTo('PENDING');
    t.uuid('highlight_id').references('highlights.id').onDelete('SET NULL');
    t.text('model').notNullable();
    t.uuid('decided_by').references('users.id').onDelete('SET NULL');
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'note_id', 'status']);
  });
  await knex.raw(
    `alter table highlight_suggestions add constraint highlight_suggestions_status_check check (status in ('PENDING', 'ACCEPTED', 'REJECTED'))`,
  );
  await knex.raw(
    `alter table highlight_suggestions add constraint highlight_suggestions_range_check check (start_offset >= 0 and end_offset > start_offset)`,
  );
  await enableTenantRls(knex, 'highlight_suggestions');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('highlight_suggestions');
}
