import type { Knex } from 'knex';

/**
 * What the planner expects of a text search, for several tables in one round trip: each table's
 * rows (row-level security holds them to the workspace), the rows whose vector matches the query,
 * and the table's size. The search engine asks this to tell a common word from a rare one before
 * it picks a path (modules/search/src/engine/postgres/density.ts); one statement per table and
 * estimate cost more than the search of a rare word itself.
 *
 * The query travels as a tsquery value, written into the explained statement as a literal (%L) so
 * the planner sees its words; the vector expressions are fixed SQL of the search module. The
 * function runs with its caller's rights, so it reaches nothing the caller could not.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function search_plan_rows(tables text[], vectors text[], queries tsquery[])
    returns table (n int, table_rows float8, items float8, matches float8)
    language plpgsql as $$
    declare
      plan json;
    begin
      for i in 1 .. coalesce(array_length(tables, 1), 0) loop
        n := i;
        select c.reltuples::float8 into table_rows from pg_class c where c.oid = to_regclass(tables[i]);
        execute format('explain (format json) select 1 from %I t', tables[i]) into plan;
        items := (plan->0->'Plan'->>'Plan Rows')::float8;
        execute format('explain (format json) select 1 from %I t where %s @@ %L::tsquery', tables[i], vectors[i], queries[i]::text) into plan;
        matches := (plan->0->'Plan'->>'Plan Rows')::float8;
        return next;
      end loop;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists search_plan_rows(text[], text[], tsquery[])');
}
