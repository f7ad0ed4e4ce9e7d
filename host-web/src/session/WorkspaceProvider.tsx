import { Text } from '@mantine/core';
import { IconUserQuestion } from '@tabler/icons-react';
import { FieldbookHostContext, type FieldbookHost } from '@fieldbook/extensions-sdk/web';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { isWorkspaceNotFound } from '../api/errors.ts';
import { useQuery } from '../api/hooks.ts';
import { ops, type Membership, type Workspace } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { FullPageLoader } from '../common/Loading.tsx';
import { MessagePage } from '../common/MessagePage.tsx';
import { WorkspaceNotFoundPage } from '../common/NotFound.tsx';
import { useSession } from './SessionProvider.tsx';

export interface WorkspaceValue {
  workspace: Workspace;
  membership: Membership;
  can(permission: string): boolean;
  isAdmin: boolean;
  reload(): Promise<void>;
}

const WorkspaceContext = createContext<WorkspaceValue | null>(null);

export function useWorkspace(): WorkspaceValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace must be used inside a workspace page.');
  return value;
}

/**
 * Loads the workspace the app addresses and the person's membership in it, and hands both to
 * the workspace pages and to extensions (the SDK's host context).
 */
export function WorkspaceProvider({ children }: { children?: ReactNode }) {
  const session = useSession();
  const navigate = useNavigate();
  const q = useQuery<{ currentWorkspace: Workspace | null; myMembership: Membership | null }>(
    ops.currentWorkspace,
    {},
    { skip: !session.workspaceId, key: session.workspaceId },
  );

  const value = useMemo<WorkspaceValue | null>(() => {
    const workspace = q.data?.currentWorkspace;
    const membership = q.data?.myMembership;
    if (!workspace || !membership) return null;
    const perms = new Set(membership.permissions);
    return {
      workspace,
      membership,
      can: (p) => perms.has(p),
      isAdmin: membership.workspaceAdmin || membership.effectiveRole === 'WORKSPACE_ADMIN',
      reload: q.reload,
    };
  }, [q.data, q.reload]);

  const host = useMemo<FieldbookHost | null>(
    () =>
      value && session.user
        ? {
            graphql: (query, variables) => session.services.client.request(query, variables),
            workspace: { id: value.workspace.id, name: value.workspace.name, subdomain: value.workspace.subdomain },
            viewer: { id: session.user.id, email: session.user.email, name: session.user.name },
            permissions: value.membership.permissions,
            fetch: async (path, init) => {
              const headers = new Headers(init?.headers);
              const token = await session.services.session.accessToken();
              if (token) headers.set('authorization', `Bearer ${token}`);
              headers.set('x-fieldbook-workspace', value.workspace.id);
              return fetch(path, { ...init, headers, credentials: 'include' });
            },
          }
        : null,
    [value, session.user, session.services],
  );

  if (!session.workspaceId) return <Navigate to="/auth/workspaces" replace />;
  if (isWorkspaceNotFound(q.error)) {
    return (
      <WorkspaceNotFoundPage
        onChooseAnother={() => {
          session.setWorkspace(null);
          navigate('/auth/workspaces');
        }}
      />
    );
  }
  if (q.error) {
    return (
      <MessagePage
        icon={<IconUserQuestion size={24} />}
        title="This workspace could not be loaded"
        actions={[{ label: 'Try again', onClick: () => void q.reload(), primary: true }]}
      >
        <ErrorAlert error={q.error} />
      </MessagePage>
    );
  }
  const switching = q.loading && value !== null && value.workspace.id !== session.workspaceId;
  if (!q.data || switching) return <FullPageLoader label="Opening your workspace…" />;
  if (!value) {
    const name = q.data.currentWorkspace?.name ?? 'this workspace';
    return (
      <MessagePage
        icon={<IconUserQuestion size={24} />}
        title={`You’re not a member of ${name}`}
        actions={[
          { label: 'Choose a workspace', to: '/auth/workspaces', primary: true },
          { label: 'Sign in as someone else', to: '/auth/logout' },
        ]}
      >
        <Text size="sm">Ask a workspace admin to invite you, or open one of your own workspaces.</Text>
      </MessagePage>
    );
  }
  return (
    <WorkspaceContext.Provider value={value}>
      <FieldbookHostContext.Provider value={host}>{children ?? <Outlet />}</FieldbookHostContext.Provider>
    </WorkspaceContext.Provider>
  );
}
