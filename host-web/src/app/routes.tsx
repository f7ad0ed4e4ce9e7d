import { Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Suspense, lazy } from 'react';
import {
  Navigate,
  Outlet,
  createBrowserRouter,
  matchPath,
  useLocation,
  useRouteError,
  type RouteObject,
} from 'react-router';
import { FullPageLoader } from '../common/Loading.tsx';
import { MessagePage } from '../common/MessagePage.tsx';
import { NotFoundContent, NotFoundPage } from '../common/NotFound.tsx';
import { useExtensions } from '../extensions/ExtensionsProvider.tsx';
import { moduleExtensions } from '../extensions/modules.ts';
import { RequireSignedIn, SessionReady } from '../session/guards.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { WorkspaceProvider, useWorkspace } from '../session/WorkspaceProvider.tsx';
import { ConnectionIndicator, ReleaseBanner } from './ConnectionIndicator.tsx';

/*
 * Every page is loaded when a route that shows it is matched (react-router runs the `lazy` of all
 * matched routes at once), so the sign-in page does not carry the workspace app and the
 * workspace home does not carry settings screens or the editor.
 */
const WorkspaceShell = lazy(() => import('../layout/WorkspaceShell.tsx').then((m) => ({ default: m.WorkspaceShell })));

function Root() {
  return (
    <>
      <ReleaseBanner />
      <ConnectionIndicator />
      {/* Pages of modules are lazy components: they suspend while their code loads. */}
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
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
    <MessagePage
      icon={<IconAlertTriangle size={24} />}
      title="Something went wrong"
      actions={[{ label: 'Reload the page', onClick: () => window.location.reload(), primary: true }]}
    >
      <Text size="sm">
        This page ran into a problem. Reloading usually helps; if it keeps happening, tell your workspace admin what you
        were doing.
      </Text>
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
      <WorkspaceShell>
        <ExtensionRouteOrNotFound />
      </WorkspaceShell>
    </WorkspaceProvider>
  );
}

const moduleRoutes: RouteObject[] = moduleExtensions.flatMap((e) =>
  (e.routes ?? []).filter((r) => !r.public).map((r) => ({ path: r.path, Component: r.component })),
);
/** Pages of modules that signed-out people open (public share links): no session, no workspace. */
const publicModuleRoutes: RouteObject[] = moduleExtensions.flatMap((e) =>
  (e.routes ?? []).filter((r) => r.public).map((r) => ({ path: r.path, Component: r.component })),
);

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    // Shown while the first page's code loads.
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      { path: '/', element: <IndexRedirect /> },
      {
        path: '/auth',
        element: <SessionReady />,
        children: [
          { index: true, element: <Navigate to="/auth/login" replace /> },
          { path: 'login', lazy: () => import('../auth/LoginPage.tsx').then((m) => ({ Component: m.LoginPage })) },
          { path: 'signup', lazy: () => import('../auth/SignupPage.tsx').then((m) => ({ Component: m.SignupPage })) },
          {
            path: 'confirm-email',
            lazy: () => import('../auth/LinkPages.tsx').then((m) => ({ Component: m.ConfirmEmailPage })),
          },
          {
            path: 'magic-login',
            lazy: () => import('../auth/LinkPages.tsx').then((m) => ({ Component: m.MagicLoginPage })),
          },
          {
            path: 'reset-password',
            lazy: () => import('../auth/LinkPages.tsx').then((m) => ({ Component: m.ResetPasswordPage })),
          },
          { path: 'unlock', lazy: () => import('../auth/LinkPages.tsx').then((m) => ({ Component: m.UnlockPage })) },
          {
            path: 'find-workspace',
            lazy: () => import('../auth/FindWorkspacePage.tsx').then((m) => ({ Component: m.FindWorkspacePage })),
          },
          {
            path: 'accept-invite',
            lazy: () => import('../auth/AcceptInvitePage.tsx').then((m) => ({ Component: m.AcceptInvitePage })),
          },
          { path: 'logout', lazy: () => import('../auth/LinkPages.tsx').then((m) => ({ Component: m.LogoutPage })) },
          {
            element: <RequireSignedIn />,
            children: [
              {
                path: 'create-workspace',
                lazy: () =>
                  import('../auth/CreateWorkspacePage.tsx').then((m) => ({ Component: m.CreateWorkspacePage })),
              },
              {
                path: 'workspaces',
                lazy: () => import('../auth/WorkspacesPage.tsx').then((m) => ({ Component: m.WorkspacesPage })),
              },
              {
                path: 'join-workspace',
                lazy: () => import('../auth/WorkspacesPage.tsx').then((m) => ({ Component: m.JoinWorkspacePage })),
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        path: '/unsubscribe',
        lazy: () => import('../notifications/UnsubscribePage.tsx').then((m) => ({ Component: m.UnsubscribePage })),
      },
      {
        path: '/team-redirect/:teamId/*',
        lazy: () => import('../auth/TeamRedirect.tsx').then((m) => ({ Component: m.TeamRedirect })),
      },
      ...publicModuleRoutes,
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: <WorkspaceProvider />,
            children: [
              {
                path: '/onboarding',
                lazy: () => import('../workspace/OnboardingPage.tsx').then((m) => ({ Component: m.OnboardingPage })),
              },
              {
                path: '/onboarding/getting-started',
                lazy: () =>
                  import('../workspace/onboarding/GettingStartedPage.tsx').then((m) => ({
                    Component: m.GettingStartedPage,
                  })),
              },
              {
                path: '/onboarding/setup-workspace',
                lazy: () => import('../workspace/OnboardingPage.tsx').then((m) => ({ Component: m.OnboardingPage })),
              },
              {
                path: '/onboarding/project-setup',
                lazy: () =>
                  import('../workspace/onboarding/ProjectSetupPage.tsx').then((m) => ({
                    Component: m.ProjectSetupPage,
                  })),
              },
              {
                lazy: () => import('../layout/WorkspaceShell.tsx').then((m) => ({ Component: m.WorkspaceShell })),
                children: [
                  {
                    path: '/home',
                    lazy: () => import('../workspace/HomePage.tsx').then((m) => ({ Component: m.HomePage })),
                  },
                  { path: '/settings', element: <Navigate to="/settings/user/account" replace /> },
                  {
                    path: '/settings/users',
                    lazy: () => import('../settings/UsersPage.tsx').then((m) => ({ Component: m.UsersPage })),
                  },
                  {
                    path: '/settings/groups',
                    lazy: () => import('../settings/GroupsPage.tsx').then((m) => ({ Component: m.GroupsPage })),
                  },
                  {
                    path: '/settings/security',
                    lazy: () => import('../settings/SecurityPage.tsx').then((m) => ({ Component: m.SecurityPage })),
                  },
                  {
                    path: '/notifications',
                    lazy: () =>
                      import('../notifications/NotificationsPage.tsx').then((m) => ({
                        Component: m.NotificationsPage,
                      })),
                  },
                  {
                    path: '/settings/user/notifications',
                    lazy: () =>
                      import('../notifications/NotificationSettingsPage.tsx').then((m) => ({
                        Component: m.NotificationSettingsPage,
                      })),
                  },
                  {
                    path: '/settings/user/account',
                    lazy: () => import('../settings/AccountPage.tsx').then((m) => ({ Component: m.AccountPage })),
                  },
                  {
                    path: '/settings/extensions',
                    lazy: () =>
                      import('../settings/extensions/ExtensionsPage.tsx').then((m) => ({
                        Component: m.ExtensionsPage,
                      })),
                  },
                  {
                    path: '/settings/integrations',
                    lazy: () =>
                      import('../settings/extensions/IntegrationsPage.tsx').then((m) => ({
                        Component: m.IntegrationsPage,
                      })),
                  },
                  {
                    path: '/settings/user/api-tokens',
                    lazy: () => import('../settings/ApiTokensPage.tsx').then((m) => ({ Component: m.ApiTokensPage })),
                  },
                  {
                    path: '/settings/user/integrations',
                    lazy: () =>
                      import('../settings/extensions/IntegrationsPage.tsx').then((m) => ({
                        Component: m.MyIntegrationsPage,
                      })),
                  },
                  {
                    path: '/account/integration/oauth/:integration/confirm',
                    lazy: () =>
                      import('../settings/extensions/IntegrationFlowPages.tsx').then((m) => ({
                        Component: m.IntegrationConfirmPage,
                      })),
                  },
                  {
                    path: '/integrations/authorize',
                    lazy: () =>
                      import('../settings/extensions/IntegrationFlowPages.tsx').then((m) => ({
                        Component: m.AuthorizeIntegrationPage,
                      })),
                  },
                  {
                    path: '/projects/:projectId/settings/extensions',
                    lazy: () =>
                      import('../settings/extensions/ProjectExtensionsPage.tsx').then((m) => ({
                        Component: m.ProjectExtensionsPage,
                      })),
                  },
                  {
                    path: '/audit-log',
                    lazy: () => import('../workspace/AuditLogPage.tsx').then((m) => ({ Component: m.AuditLogPage })),
                  },
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
