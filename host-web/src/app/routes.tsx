import { Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Navigate, Outlet, createBrowserRouter, matchPath, useLocation, useRouteError, type RouteObject } from 'react-router';
import { AcceptInvitePage } from '../auth/AcceptInvitePage.tsx';
import { CreateWorkspacePage } from '../auth/CreateWorkspacePage.tsx';
import { FindWorkspacePage } from '../auth/FindWorkspacePage.tsx';
import { ConfirmEmailPage, LogoutPage, MagicLoginPage, ResetPasswordPage, UnlockPage } from '../auth/LinkPages.tsx';
import { LoginPage } from '../auth/LoginPage.tsx';
import { SignupPage } from '../auth/SignupPage.tsx';
import { TeamRedirect } from '../auth/TeamRedirect.tsx';
import { JoinWorkspacePage, WorkspacesPage } from '../auth/WorkspacesPage.tsx';
import { FullPageLoader } from '../common/Loading.tsx';
import { MessagePage } from '../common/MessagePage.tsx';
import { NotFoundContent, NotFoundPage } from '../common/NotFound.tsx';
import { ExtensionsProvider, useExtensions } from '../extensions/ExtensionsProvider.tsx';
import { moduleExtensions } from '../extensions/modules.ts';
import { WorkspaceLayout } from '../layout/WorkspaceLayout.tsx';
import { AccountPage } from '../settings/AccountPage.tsx';
import { ExtensionsPage } from '../settings/extensions/ExtensionsPage.tsx';
import { AuthorizeIntegrationPage, IntegrationConfirmPage } from '../settings/extensions/IntegrationFlowPages.tsx';
import { IntegrationsPage, MyIntegrationsPage } from '../settings/extensions/IntegrationsPage.tsx';
import { ProjectExtensionsPage } from '../settings/extensions/ProjectExtensionsPage.tsx';
import { GroupsPage } from '../settings/GroupsPage.tsx';
import { SecurityPage } from '../settings/SecurityPage.tsx';
import { UsersPage } from '../settings/UsersPage.tsx';
import { RequireSignedIn, SessionReady } from '../session/guards.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { WorkspaceProvider, useWorkspace } from '../session/WorkspaceProvider.tsx';
import { AuditLogPage } from '../workspace/AuditLogPage.tsx';
import { HomePage } from '../workspace/HomePage.tsx';
import { OnboardingPage } from '../workspace/OnboardingPage.tsx';
import { ConnectionIndicator, ReleaseBanner } from './ConnectionIndicator.tsx';

function Root() {
  return (
    <>
      <ReleaseBanner />
      <ConnectionIndicator />
      <Outlet />
    </>
  );
}

/** `/`: into the workspace, to choosing one, or to sign-in. */
function IndexRedirect() {
  const session = useSession();
  if (session.status === 'loading') return <FullPageLoader />;
  if (session.status !== 'signedIn') return <Navigate to="/auth/login" replace />;
  return <Navigate to={session.workspaceId ? '/home' : '/auth/workspaces'} replace />;
}

function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <MessagePage icon={<IconAlertTriangle size={24} />} title="Something went wrong" actions={[{ label: 'Reload the page', onClick: () => window.location.reload(), primary: true }]}>
      <Text size="sm">This page ran into a problem. Reloading usually helps; if it keeps happening, tell your workspace admin what you were doing.</Text>
    </MessagePage>
  );
}

/** A page of a module or plugin added at run time, or the not-found page. */
function ExtensionRouteOrNotFound() {
  const { routes } = useExtensions();
  const { can } = useWorkspace();
  const { pathname } = useLocation();
  const route = routes.find((r) => !r.public && matchPath(r.path, pathname));
  if (!route || (route.permission && !can(route.permission))) return <NotFoundContent />;
  const Component = route.component;
  return <Component />;
}

/**
 * Unknown paths: signed-in people in a workspace see the not-found page inside the app (plugin
 * pages are matched here too); everyone else sees it on its own.
 */
function CatchAll() {
  const session = useSession();
  if (session.status === 'loading') return <FullPageLoader />;
  if (session.status !== 'signedIn' || !session.workspaceId) return <NotFoundPage />;
  return (
    <WorkspaceProvider>
      <ExtensionsProvider>
        <WorkspaceLayout>
          <ExtensionRouteOrNotFound />
        </WorkspaceLayout>
      </ExtensionsProvider>
    </WorkspaceProvider>
  );
}

const moduleRoutes: RouteObject[] = moduleExtensions.flatMap((e) => (e.routes ?? []).filter((r) => !r.public).map((r) => ({ path: r.path, Component: r.component })));
/** Pages of modules that signed-out people open (public share links): no session, no workspace. */
const publicModuleRoutes: RouteObject[] = moduleExtensions.flatMap((e) => (e.routes ?? []).filter((r) => r.public).map((r) => ({ path: r.path, Component: r.component })));

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <IndexRedirect /> },
      {
        path: '/auth',
        element: <SessionReady />,
        children: [
          { index: true, element: <Navigate to="/auth/login" replace /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'signup', element: <SignupPage /> },
          { path: 'confirm-email', element: <ConfirmEmailPage /> },
          { path: 'magic-login', element: <MagicLoginPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          { path: 'unlock', element: <UnlockPage /> },
          { path: 'find-workspace', element: <FindWorkspacePage /> },
          { path: 'accept-invite', element: <AcceptInvitePage /> },
          { path: 'logout', element: <LogoutPage /> },
          {
            element: <RequireSignedIn />,
            children: [
              { path: 'create-workspace', element: <CreateWorkspacePage /> },
              { path: 'workspaces', element: <WorkspacesPage /> },
              { path: 'join-workspace', element: <JoinWorkspacePage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '/team-redirect/:teamId/*', element: <TeamRedirect /> },
      ...publicModuleRoutes,
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: <WorkspaceProvider />,
            children: [
              { path: '/onboarding', element: <OnboardingPage /> },
              {
                element: (
                  <ExtensionsProvider>
                    <WorkspaceLayout />
                  </ExtensionsProvider>
                ),
                children: [
                  { path: '/home', element: <HomePage /> },
                  { path: '/settings', element: <Navigate to="/settings/user/account" replace /> },
                  { path: '/settings/users', element: <UsersPage /> },
                  { path: '/settings/groups', element: <GroupsPage /> },
                  { path: '/settings/security', element: <SecurityPage /> },
                  { path: '/settings/user/account', element: <AccountPage /> },
                  { path: '/settings/extensions', element: <ExtensionsPage /> },
                  { path: '/settings/integrations', element: <IntegrationsPage /> },
                  { path: '/settings/user/integrations', element: <MyIntegrationsPage /> },
                  { path: '/account/integration/oauth/:integration/confirm', element: <IntegrationConfirmPage /> },
                  { path: '/integrations/authorize', element: <AuthorizeIntegrationPage /> },
                  { path: '/projects/:projectId/settings/extensions', element: <ProjectExtensionsPage /> },
                  { path: '/audit-log', element: <AuditLogPage /> },
                  ...moduleRoutes,
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
