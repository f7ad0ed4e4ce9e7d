import type { Knex } from 'knex';

/**
 * The workspace's people with these emails (lower-cased), those not found created, in a few
 * queries whatever the number of addresses. Research owns the people and exports no service to
 * find or create them inside another module's transaction yet, so this writes its table directly,
 * keeping to its rules: one live person per address whatever its case (the people_email_unique
 * index), and a name of at most 300 characters.
 */
export async function peopleForEmails(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string | null,
  wanted: ReadonlyMap<string, string | null | undefined>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (!wanted.size) return ids;
  const find = async (emails: string[]) => {
    const { rows } = await trx.raw<{ rows: Array<{ id: string; email: string }> }>(
      'select id, lower(email) as email from people where workspace_id = ? and email is not null and deleted_at is null and lower(email) = any(?::text[])',
      [workspaceId, emails],
    );
    for (const r of rows) ids.set(r.email, r.id);
  };
  await find([...wanted.keys()]);
  const missing = [...wanted.keys()].filter((e) => !ids.has(e)).sort();
  if (!missing.length) return ids;
  const names = missing.map((e) => [...(wanted.get(e)?.trim() || e)].slice(0, 300).join(''));
  const { rows } = await trx.raw<{ rows: Array<{ id: string; email: string }> }>(
    `insert into people (workspace_id, name, email, created_by, updated_by)
     select ?, x.name, x.email, ?, ? from unnest(?::text[], ?::text[]) as x(email, name)
     on conflict do nothing returning id, lower(email) as email`,
    [workspaceId, userId, userId, missing, names],
  );
  for (const r of rows) ids.set(r.email, r.id);
  // Those another import created meanwhile.
  const raced = missing.filter((e) => !ids.has(e));
  if (raced.length) await find(raced);
  return ids;
}
