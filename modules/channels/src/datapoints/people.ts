import type { Knex } from 'knex';

/**
 * The workspace's person with this email, created when there is none. Research owns the people
 * and exports no service to find or create one inside another module's transaction yet, so this
 * writes its table directly, keeping to its rules: one live person per address whatever its case
 * (the people_email_unique index), and a name of at most 300 characters.
 */
export async function personForEmail(trx: Knex.Transaction, workspaceId: string, userId: string | null, email: string, name?: string | null): Promise<string> {
  const find = async () =>
    (await trx('people').where({ workspace_id: workspaceId }).whereNull('deleted_at').whereRaw('lower(email) = lower(?)', [email]).first('id')) as { id: string } | undefined;
  const found = await find();
  if (found) return found.id;
  const personName = [...(name?.trim() || email)].slice(0, 300).join('');
  const { rows } = await trx.raw<{ rows: Array<{ id: string }> }>(
    'insert into people (workspace_id, name, email, created_by, updated_by) values (?, ?, ?, ?, ?) on conflict do nothing returning id',
    [workspaceId, personName, email, userId, userId],
  );
  if (rows[0]) return rows[0].id;
  // Another import created them meanwhile.
  return (await find())!.id;
}
