/**
 * The workspace this browser last entered. On a workspace subdomain the server reads the
 * workspace from the host; on the root domain (and localhost) the app sends it in the
 * workspace header, so it keeps the choice here.
 */
const KEY = 'fieldbook.workspace';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

export function readWorkspaceChoice(): string | null {
  try {
    const value = localStorage.getItem(KEY);
    return value && isUuid(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeWorkspaceChoice(id: string | null): void {
  try {
    if (id) localStorage.setItem(KEY, id);
    else localStorage.removeItem(KEY);
  } catch {
    // Private browsing may refuse storage; the choice then lasts for this page only.
  }
}

const INVITE_KEY = 'fieldbook.pendingInvite';

/** An invite link opened before signing up: the confirmation mail leads back to it. */
export function rememberPendingInvite(token: string | null): void {
  try {
    if (token) localStorage.setItem(INVITE_KEY, token);
    else localStorage.removeItem(INVITE_KEY);
  } catch {
    // see above
  }
}

export function pendingInvite(): string | null {
  try {
    return localStorage.getItem(INVITE_KEY);
  } catch {
    return null;
  }
}
