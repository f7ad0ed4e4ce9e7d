import type { Knex } from 'knex';

/**
 * Marks webhook deliveries handled in the transaction that turned them into notes, so a delivery
 * is marked exactly when its notes commit. The application role may add deliveries but not read
 * them (their raw bodies are every workspace's); this function lets it mark only the deliveries
 * routed to an installation of the transaction's own workspace, and answers how many it marked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function mark_webhook_deliveries_handled(p_ids bigint[])
    returns integer
    language sql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
      with marked as (
        update public.plugin_webhook_events e set handled_at = now()
        from public.plugin_installations i
        where e.id = any(p_ids) and e.handled_at is null and i.id = e.installation_id
          and i.workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid
        returning 1
      )
      select count(*)::integer from marked
    $$`);
  await knex.raw('revoke all on function mark_webhook_deliveries_handled(bigint[]) from public');
  // ensureAppRole grants the application role EXECUTE on the schema's functions after migrating.
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists mark_webhook_deliveries_handled(bigint[])');
}
