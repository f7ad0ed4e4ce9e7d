import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { NetworkError } from '../api/errors.ts';
import { ops, type AuthPayload, type User } from '../api/operations.ts';
import type { AppServices } from '../app/services.ts';
import { writeWorkspaceChoice } from './workspace-choice.ts';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut' | 'unreachable';

export interface SessionValue {
  services: AppServices;
  status: SessionStatus;
  user: User | null;
  /** Why the last session ended (expired, revoked), for the sign-in prompt. */
  endedMessage: string | null;
  workspaceId: string | null;
  /** Keeps the session of a sign-in (sign-in, confirmation, magic link, reset). */
  signedIn(payload: AuthPayload): void;
  signOut(): Promise<void>;
  setWorkspace(id: string | null): void;
  setUser(user: User): void;
  retry(): void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider.');
  return value;
}

export const useServices = (): AppServices => useSession().services;

/** Finds out at start whether this browser has a session (a kept token or the refresh cookie). */
export function SessionProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [user, setUser] = useState<User | null>(null);
  const [endedMessage, setEndedMessage] = useState<string | null>(null);
  const [workspaceId, setWorkspaceId] = useState<string | null>(services.workspace.id);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        if (!services.session.hasToken && !(await services.session.renew())) {
          if (!cancelled) setStatus('signedOut');
          return;
        }
        const { me } = await services.client.request<{ me: User | null }>(ops.me, {}, { workspace: false });
        if (cancelled) return;
        setUser(me);
        setStatus(me ? 'signedIn' : 'signedOut');
      } catch (err) {
        if (!cancelled) setStatus(err instanceof NetworkError ? 'unreachable' : 'signedOut');
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [services, attempt]);

  useEffect(
    () =>
      services.session.subscribe((event) => {
        if (event.type === 'ended') {
          setUser(null);
          setEndedMessage(event.message);
          setStatus('signedOut');
        } else {
          setUser(event.payload.user);
        }
      }),
    [services],
  );

  const setWorkspace = useCallback(
    (id: string | null) => {
      services.workspace.id = id;
      writeWorkspaceChoice(id);
      setWorkspaceId(id);
    },
    [services],
  );

  const signedIn = useCallback(
    (payload: AuthPayload) => {
      services.session.accept(payload);
      setUser(payload.user);
      setEndedMessage(null);
      setStatus('signedIn');
    },
    [services],
  );

  const signOut = useCallback(async () => {
    try {
      await services.client.request(ops.signOut, {}, { workspace: false });
    } catch {
      // Signing out locally matters most; the server session expires on its own.
    }
    services.session.clear();
    setUser(null);
    setEndedMessage(null);
    setStatus('signedOut');
  }, [services]);

  const value = useMemo<SessionValue>(
    () => ({
      services,
      status,
      user,
      endedMessage,
      workspaceId,
      signedIn,
      signOut,
      setWorkspace,
      setUser,
      retry: () => {
        setStatus('loading');
        setAttempt((n) => n + 1);
      },
    }),
    [services, status, user, endedMessage, workspaceId, signedIn, signOut, setWorkspace],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
