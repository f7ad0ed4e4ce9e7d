import type { Knex } from 'knex';
import { APP_ROLE } from './connections.ts';

/** Where secrets the application role never reads are kept (see migrations/0016_least_privilege.ts). */
export const PRIVATE_SCHEMA = 'fieldbook_private';

/**
 * Columns of tables without row-level security that the application role may write but never
 * read: the raw webhook deliveries of every workspace, before they are routed to one. Requests
 * only store them; job workers read them with the owner connection.
 */
const WRITE_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  plugin_webhook_events: ['headers', 'body'],
};

/** Tables the application role may add rows to but neither change nor remove rows of. */
const APPEND_ONLY_TABLES: readonly string[] = ['plugin_webhook_events'];

/**
 * Narrows the application role's table grants below the blanket ones ensureAppRole gives. Runs
 * after them on every start, so it is reapplied whatever the blanket grants restored.
 */
export async function narrowAppRole(owner: Knex): Promise<void> {
  for (const [table, hidden] of Object.entries(WRITE_ONLY_COLUMNS)) {
    const { rows } = await owner.raw<{ rows: Array<{ name: string }> }>(
      `select a.attname as name from pg_attribute a
       where a.attrelid = to_regclass(?) and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [`public.${table}`],
    );
    if (!rows.length) continue;
    const readable = rows.map((r) => r.name).filter((name) => !hidden.includes(name));
    await owner.raw(`REVOKE SELECT ON ?? FROM ${APP_ROLE}`, [table]);
    await owner.raw(`GRANT SELECT (${readable.map(() => '??').join(', ')}) ON ?? TO ${APP_ROLE}`, [...readable, table]);
  }
  for (const table of APPEND_ONLY_TABLES) {
    await owner.raw(`REVOKE UPDATE, DELETE ON ?? FROM ${APP_ROLE}`, [table]);
  }
  // Password hashes (migration 0016): nothing in this schema is the application role's.
  const { rows } = await owner.raw<{ rows: unknown[] }>('select 1 from pg_namespace where nspname = ?', [PRIVATE_SCHEMA]);
  if (rows.length) {
    await owner.raw(`REVOKE ALL ON SCHEMA ${PRIVATE_SCHEMA} FROM ${APP_ROLE}`);
    await owner.raw(`REVOKE ALL ON ALL TABLES IN SCHEMA ${PRIVATE_SCHEMA} FROM ${APP_ROLE}`);
  }
}
