import { ConnectionMonitor } from '../api/connection.ts';
import { createGraphQLClient, type GraphQLClient } from '../api/graphql-client.ts';
import { ops, type AuthPayload } from '../api/operations.ts';
import { SessionStore } from '../session/session-store.ts';
import { readWorkspaceChoice } from '../session/workspace-choice.ts';

/** The app's long-lived objects, made once at start and handed to React through context. */
export interface AppServices {
  client: GraphQLClient;
  session: SessionStore;
  connection: ConnectionMonitor;
  /** The workspace the app addresses now; the client reads it for every request. */
  workspace: { id: string | null };
  /** The release the server ran when this page loaded; a different one means a new version is out. */
  release: { loaded: string | null; latest: string | null; listeners: Set<() => void> };
}

export function createAppServices(): AppServices {
  const connection = new ConnectionMonitor();
  const workspace = { id: readWorkspaceChoice() };
  const release: AppServices['release'] = { loaded: null, latest: null, listeners: new Set() };
  const onHttpResult = (ok: boolean) =>
    connection.dispatch(ok ? { type: 'httpOk' } : { type: 'httpNetworkError', browserOnline: navigator.onLine });
  const onRelease = (seen: string) => {
    release.loaded ??= seen;
    if (release.latest !== seen) {
      release.latest = seen;
      for (const l of [...release.listeners]) l();
    }
  };
  // Renewals go through a client of their own: it sends no token and no workspace.
  const bare = createGraphQLClient({ onHttpResult, onRelease });
  const session = new SessionStore({
    refresh: async () =>
      (await bare.request<{ refreshSession: AuthPayload }>(ops.refreshSession, {}, { workspace: false }))
        .refreshSession,
    storage: sessionStorage,
    locks: typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null,
  });
  const client = createGraphQLClient({ auth: session, workspace: () => workspace.id, onHttpResult, onRelease });
  return { client, session, connection, workspace, release };
}
