import type { AuthPayload } from '../api/operations.ts';
import { pendingInvite } from '../session/workspace-choice.ts';

/** Only paths inside this app may be a `next` target (never another site). */
export function safeNext(next: string | null): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/**
 * Where a person goes once signed in: back to an invite they opened, to the page they wanted (in
 * a workspace they belong to), into the one workspace they belong to, to create their first
 * workspace, or to choose one.
 */
export function destinationAfterSignIn(
  payload: Pick<AuthPayload, 'teamId' | 'availableTeams'>,
  next: string | null,
  currentWorkspace: string | null = null,
): string {
  const invite = pendingInvite();
  if (invite) return `/auth/accept-invite?token=${encodeURIComponent(invite)}`;
  const memberOf = (id: string | null) =>
    id ? payload.availableTeams.find((t) => t.id === id && t.type === 'MEMBER') : undefined;
  const current = memberOf(currentWorkspace);
  const lead = memberOf(payload.teamId);
  const target = safeNext(next);
  if (target) {
    // A workspace page needs a workspace: enter the one the sign-in leads to, unless one is chosen.
    if (!current && lead && !target.startsWith('/auth/')) return `/team-redirect/${lead.id}${target}`;
    return target;
  }
  if (lead) return `/team-redirect/${lead.id}/home`;
  if (current) return '/home';
  if (payload.availableTeams.length === 0) return '/auth/create-workspace';
  return '/auth/workspaces';
}

/** The reCAPTCHA token the send-confirmation call needs; no provider is configured, so it is a marker. */
export const RECAPTCHA_TOKEN = 'fieldbook-web';
