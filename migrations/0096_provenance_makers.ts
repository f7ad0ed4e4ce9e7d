import type { Knex } from 'knex';

/**
 * Who made an AI-made object: AI on a person's request (a step, an accepted suggestion, a
 * translation) or an agent. Rows written before this are AI's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table ai_provenance add column made_by text not null default 'AI'`);
  await knex.raw(
    `alter table ai_provenance add constraint ai_provenance_made_by_check check (made_by in ('AI', 'AGENT'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table ai_provenance drop column made_by');
}
