import type { AuditEntry, Role } from '../api/operations.ts';
import { roleLabel } from '../settings/roles.ts';

type Meta = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** `MEMBER_ROLE_CHANGED` reads as “Member role changed”. */
export function kindLabel(kind: string): string {
  const words = kind
    .toLowerCase()
    .replace(/[_:.]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function roleOf(v: unknown): string | null {
  if (!v || typeof v !== 'object') return null;
  const { role, workspaceAdmin } = v as { role?: unknown; workspaceAdmin?: unknown };
  if (workspaceAdmin === true) return roleLabel('WORKSPACE_ADMIN');
  return typeof role === 'string' && ['VIEWER', 'CONTRIBUTOR', 'MANAGER'].includes(role)
    ? roleLabel(role as Role)
    : null;
}

const listOf = (v: unknown): string => (Array.isArray(v) && v.length ? v.join(', ') : 'none');

/** One sentence for an audit entry, from its kind and what it recorded. */
export function describeAuditEntry(entry: Pick<AuditEntry, 'kind' | 'metadata'>): string {
  const m: Meta = entry.metadata ?? {};
  const action = str(m.action);
  const name = str(m.name);
  const email = str(m.email);
  switch (entry.kind) {
    case 'WORKSPACE':
      if (action === 'created') return `Created the workspace${name ? ` “${name}”` : ''}`;
      return 'Changed the workspace settings';
    case 'INVITE': {
      const as = roleOf(m);
      if (action === 'revoked') return `Revoked the invitation to ${email ?? 'someone'}`;
      return `Invited ${email ?? 'someone'}${as ? ` as ${as.toLowerCase()}` : ''}`;
    }
    case 'MEMBER_ADDED': {
      const as = roleOf(m);
      const via = str(m.via);
      const how =
        via === 'INVITE' ? ' by invitation' : via === 'DOMAIN' ? ' by email domain' : via === 'CREATE' ? '' : '';
      return `Joined${how}${as ? ` as ${as.toLowerCase()}` : ''}`;
    }
    case 'MEMBER_REMOVED':
      return m.left === true ? 'Left the workspace' : 'Removed a member';
    case 'ROLE_CHANGE': {
      const from = roleOf(m.old);
      const to = roleOf(m.new);
      return from && to
        ? `Changed a member’s role from ${from.toLowerCase()} to ${to.toLowerCase()}`
        : 'Changed a member’s role';
    }
    case 'DOMAINS':
      return `Set the allowed email domains to ${listOf(m.new)}`;
    case 'USER_GROUP':
      if (action === 'created') return `Created the group${name ? ` “${name}”` : ''}`;
      if (action === 'renamed') return `Renamed a group${name ? ` to “${name}”` : ''}`;
      if (action === 'deleted') return `Deleted the group${name ? ` “${name}”` : ''}`;
      if (action === 'members') return `Changed the members of${name ? ` “${name}”` : ' a group'}`;
      return 'Changed a group';
    case 'API_TOKEN':
      return `${action === 'revoked' ? 'Revoked' : 'Created'} the API token${name ? ` “${name}”` : ''}`;
    case 'MCP_TOOL_CALL': {
      const tool = str(m.tool) ?? 'a tool';
      const outcome = str(m.outcome);
      if (outcome === 'refused') return `An AI assistant (MCP) was refused ${tool}`;
      if (outcome === 'error') return `An AI assistant (MCP) ran ${tool}, which failed`;
      return `An AI assistant (MCP) ran ${tool}`;
    }
    default:
      return action ? `${kindLabel(entry.kind)} ${action}` : kindLabel(entry.kind);
  }
}
