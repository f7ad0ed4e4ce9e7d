import { atLeast, isRestricted, parsePermissionMap, projectAccess, type RequestContext } from '@fieldbook/core';
import type { SourceProject } from '../conversations/sources.ts';
import { memberOf } from './access.ts';

const projectName = (p: SourceProject) => `project “${p.title.trim() || 'Untitled project'}”`;
const names = (ps: readonly SourceProject[]) => ps.map(projectName).join(', ');

/** Who an email may go to: members who can open every project the conversation read from. */
export interface Recipients {
  allowed: string[];
  /** Each address left out, with why, in words. */
  refused: Array<{ to: string; reason: string }>;
}

/**
 * Splits addresses into those an agent may email and those it may not: only members of the
 * workspace, and only those who can open every project in `sources` — whatever the agent's
 * instructions say, mail never carries what a recipient could not read in Fieldbook.
 */
export async function emailRecipients(
  member: RequestContext,
  to: readonly string[],
  sources: readonly SourceProject[],
): Promise<Recipients> {
  const m = memberOf(member);
  const wanted = [...new Set(to.map((t) => t.trim().toLowerCase()))];
  const people = await member.tx(async (trx) => {
    const rows = (await trx('workspace_members as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where('m.workspace_id', m.workspaceId)
      .whereRaw('lower(u.email) = any(?)', [wanted])
      .select('u.id', 'u.email', 'm.role', 'm.workspace_admin')) as Array<{
      id: string;
      email: string;
      role: 'MANAGER' | 'CONTRIBUTOR' | 'VIEWER';
      workspace_admin: boolean;
    }>;
    const groups = (await trx('user_group_members')
      .where({ workspace_id: m.workspaceId })
      .whereIn(
        'user_id',
        rows.map((r) => r.id),
      )
      .select('user_id', 'group_id')) as Array<{ user_id: string; group_id: string }>;
    return new Map(
      rows.map((r) => [
        r.email.toLowerCase(),
        {
          userId: r.id,
          membership: {
            role: r.role,
            workspaceAdmin: r.workspace_admin,
            effectiveRole: r.workspace_admin ? ('WORKSPACE_ADMIN' as const) : r.role,
            groupIds: groups.filter((g) => g.user_id === r.id).map((g) => g.group_id),
          },
        },
      ]),
    );
  });
  const out: Recipients = { allowed: [], refused: [] };
  for (const address of wanted) {
    const person = people.get(address);
    if (!person) {
      out.refused.push({ to: address, reason: 'not a member of this workspace' });
      continue;
    }
    const closed = sources.filter(
      (p) => !atLeast(projectAccess(person.membership, person.userId, p.permissions).level, 'read'),
    );
    if (closed.length > 0)
      out.refused.push({
        to: address,
        reason: `they cannot open ${names(closed)}, which this conversation read from`,
      });
    else out.allowed.push(address);
  }
  return out;
}

/**
 * Why a tool that posts outside the workspace (Slack, a plugin's service) may not go on, if so:
 * who reads it there is unknown, so it may carry only what every member can open.
 */
export function outsideRefusal(sources: readonly SourceProject[]): string | null {
  const restricted = sources.filter((p) => isRestricted(parsePermissionMap(p.permissions)));
  if (restricted.length === 0) return null;
  return `this conversation read from ${names(restricted)}, which not every member can open, and people outside it may read what is posted there. Start a new conversation to post from open projects only.`;
}
