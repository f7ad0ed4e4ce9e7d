import type { Knex } from 'knex';

/**
 * `highlights.insight_id` names the insight that cites the highlight (highlights are made on
 * notes). Deleting the insight must not delete the note's highlight with it: the reference is
 * cleared instead of cascading.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table highlights drop constraint if exists highlights_insight_id_foreign');
  await knex.raw(
    'alter table highlights add constraint highlights_insight_id_foreign foreign key (insight_id) references insights(id) on delete set null',
  );
  await knex.raw("comment on column highlights.insight_id is 'The insight citing this highlight, if any.'");
  await knex.raw(
    'create index if not exists highlights_workspace_id_insight_id_index on highlights (workspace_id, insight_id) where insight_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists highlights_workspace_id_insight_id_index');
  await knex.raw('alter table highlights drop constraint if exists highlights_insight_id_foreign');
  await knex.raw(
    'alter table highlights add constraint highlights_insight_id_foreign foreign key (insight_id) references insights(id) on delete cascade',
  );
}
