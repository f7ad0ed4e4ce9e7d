import type { Knex } from 'knex';
import { up as createSearchPlanRows } from './0036_search_plan_rows.ts';

/**
 * search_plan_rows (0036) is no longer called: the search engine asks search_plan_types (0070),
 * which answers the same estimates and, first, whether the workspace has any item of each type.
 * Going back recreates it as 0036 wrote it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists search_plan_rows(text[], text[], tsquery[])');
}

export async function down(knex: Knex): Promise<void> {
  await createSearchPlanRows(knex);
}
