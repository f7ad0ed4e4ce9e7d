import type { Knex } from 'knex';
import { withTenant } from '../db/tenancy.ts';

export type AvailableTeamType = 'MEMBER' | 'INVITE' | 'DOMAIN';

/** A workspace a person may enter now (002 §3 available team). */
export interface AvailableTeam {
  id: string;
  subdomain: string;
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
  sortKey: Date;
  organizationId: string | null;
  type: AvailableTeamType;
  inviteId: string | null;
  invitedBy: string | null;
}

interface WorkspaceColumns {
  id: string;
  subdomain: string;
  name: string;
  logo_url: string | null;
  primary_color: string | null;
}

const team = (
  w: WorkspaceColumns,
  type: AvailableTeamType,
  sortKey: Date,
  invite?: { id: string; invitedBy: string | null },
): AvailableTeam => ({
  id: w.id,
  subdomain: w.subdomain,
  name: w.name,
  logoUrl: w.logo_url,
  primaryColor: w.primary_color,
  sortKey,
  organizationId: null,
  type,
  inviteId: invite?.id ?? null,
  invitedBy: invite?.invitedBy ?? null,
});

const WORKSPACE_COLUMNS = ['w.id', 'w.subdomain', 'w.name', 'w.logo_url', 'w.primary_color'];

/**
 * The workspaces a person belongs to, is invited to, or may join by email domain, newest first.
 * Runs scoped to the person: row-level security lets them read their own memberships and the
 * invites addressed to their email, and nothing else of those tables.
 */
export async function availableTeamsFor(
  app: Knex,
  person: { userId: string; email: string },
): Promise<AvailableTeam[]> {
  const email = person.email.toLowerCase();
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return withTenant(app, { userId: person.userId, email }, async (trx) => {
    const members = await trx('workspace_members as m')
      .join('workspaces as w', 'w.id', 'm.workspace_id')
      .where('m.user_id', person.userId)
      .select<Array<WorkspaceColumns & { joined_at: Date }>>([...WORKSPACE_COLUMNS, 'm.created_at as joined_at']);
    const memberOf = new Set(members.map((m) => m.id));

    const invites = await trx('invites as i')
      .join('workspaces as w', 'w.id', 'i.workspace_id')
      .leftJoin('users as u', 'u.id', 'i.invited_by')
      .whereRaw('lower(i.email) = ?', [email])
      .whereNull('i.accepted_at')
      .whereNull('i.revoked_at')
      .where('i.expires_at', '>', trx.fn.now())
      .orderBy('i.created_at', 'desc')
      .select<Array<WorkspaceColumns & { invite_id: string; invited_at: Date; invited_by_name: string | null }>>([
        ...WORKSPACE_COLUMNS,
        'i.id as invite_id',
        'i.created_at as invited_at',
        'u.name as invited_by_name',
      ]);

    const byDomain = await trx('workspaces as w')
      // Domains may be kept with or without their leading @ (002 §5).
      .whereRaw('w.allowed_domains && array[?, ?]::text[]', [domain, `@${domain}`])
      .select<Array<WorkspaceColumns & { created_at: Date }>>([...WORKSPACE_COLUMNS, 'w.created_at']);

    const teams: AvailableTeam[] = members.map((m) => team(m, 'MEMBER', m.joined_at));
    const invitedTo = new Set<string>();
    for (const i of invites) {
      if (memberOf.has(i.id) || invitedTo.has(i.id)) continue; // the newest invite per workspace
      invitedTo.add(i.id);
      teams.push(team(i, 'INVITE', i.invited_at, { id: i.invite_id, invitedBy: i.invited_by_name }));
    }
    for (const w of byDomain) {
      if (memberOf.has(w.id) || invitedTo.has(w.id)) continue;
      teams.push(team(w, 'DOMAIN', w.created_at));
    }
    return teams.sort((a, b) => b.sortKey.getTime() - a.sortKey.getTime());
  });
}
