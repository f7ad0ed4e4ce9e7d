import type { Knex } from 'knex';

/**
 * What a search needs to know of each result type's table before it picks a path, in one round
 * trip: whether the workspace has any item of that type at all (exact: an index probe), and, for
 * a text search of a type it has, what the planner expects (the table's size, the workspace's
 * rows, the rows whose vector matches the query; as search_plan_rows of migration 0036).
 *
 * A type the workspace has nothing of is then left out of the search statements: each branch of
 * those statements costs planning time (joins, row-level security, window functions) whether or
 * not its table holds a row, and most workspaces leave some types unused (channels, themes, data
 * points, people). Its count is an exact zero. Nor does it cost the two EXPLAINs of the estimate.
 *
 * A word being typed has no frequency the planner knows (it guesses 2 % of any table for a
 * prefix), so for those `probes` asks the share of the workspace's `newest` most recently updated
 * items that match: what the recency window would find, read through the recency index.
 *
 * The function runs with its caller's rights, so it reaches nothing the caller could not; the
 * workspace is given so the probe is an index condition rather than the policy's function call.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function search_plan_types(workspace uuid, tables text[], vectors text[], queries tsquery[], probes tsquery[], newest int)
    returns table (n int, present boolean, table_rows float8, items float8, matches float8, newest_share float8)
    language plpgsql as $$
    declare
      plan json;
    begin
      for i in 1 .. coalesce(array_length(tables, 1), 0) loop
        n := i;
        table_rows := null;
        items := null;
        matches := null;
        newest_share := null;
        execute format('select exists (select 1 from %I t where t.workspace_id = $1)', tables[i]) into present using workspace;
        if present and queries[i] is not null then
          select c.reltuples::float8 into table_rows from pg_class c where c.oid = to_regclass(tables[i]);
          execute format('explain (format json) select 1 from %I t', tables[i]) into plan;
          items := (plan->0->'Plan'->>'Plan Rows')::float8;
          execute format('explain (format json) select 1 from %I t where %s @@ %L::tsquery', tables[i], vectors[i], queries[i]::text) into plan;
          matches := (plan->0->'Plan'->>'Plan Rows')::float8;
        end if;
        if present and probes[i] is not null then
          execute format('select (count(*) filter (where %s @@ $2))::float8 / greatest(count(*), 1) from (select * from %I t where t.workspace_id = $1 order by t.updated_at desc, t.id asc limit $3) t',
                         vectors[i], tables[i]) into newest_share using workspace, probes[i], newest;
        end if;
        return next;
      end loop;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists search_plan_types(uuid, text[], text[], tsquery[], tsquery[], int)');
}
