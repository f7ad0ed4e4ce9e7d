import type { Knex } from 'knex';

/** User ids to emails for an export, looked up a batch at a time and remembered. */
export class EmailsOfUsers {
  private readonly known = new Map<string, string | null>();

  constructor(private readonly trx: Knex.Transaction) {}

  async load(ids: ReadonlyArray<string | null | undefined>): Promise<void> {
    const missing = [...new Set(ids.filter((id): id is string => Boolean(id) && !this.known.has(id!)))];
    if (!missing.length) return;
    const rows = (await this.trx('users').whereIn('id', missing).select('id', 'email')) as Array<{
      id: string;
      email: string;
    }>;
    for (const id of missing) this.known.set(id, null);
    for (const r of rows) this.known.set(r.id, r.email.toLowerCase());
  }

  /** Call `load` first for the ids of a batch. */
  email(id: string | null | undefined): string | null {
    return id ? (this.known.get(id) ?? null) : null;
  }
}

/**
 * Emails to members of the importing workspace: people keep their authorship where they are
 * members there too; anyone else becomes null.
 */
export async function membersByEmail(trx: Knex.Transaction, workspaceId: string): Promise<Map<string, string>> {
  const rows = (await trx('workspace_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.workspace_id', workspaceId)
    .select('u.email', 'u.id')) as Array<{ email: string; id: string }>;
  return new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
}
