import { randomBytes } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECRET = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * An invite link token names its workspace before the secret (`{workspaceId}.{secret}`): invites
 * are under row-level security, and the workspace is what scopes the lookup of the secret's hash.
 */
export function newInviteToken(workspaceId: string): { token: string; secret: string } {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${workspaceId}.${secret}`, secret };
}

/** The parts of an invite token, or null for anything that cannot be one. */
export function parseInviteToken(token: string): { workspaceId: string; secret: string } | null {
  const parts = token.trim().split('.');
  if (parts.length !== 2) return null;
  const [workspaceId, secret] = parts as [string, string];
  if (!UUID.test(workspaceId) || !SECRET.test(secret)) return null;
  return { workspaceId: workspaceId.toLowerCase(), secret };
}
