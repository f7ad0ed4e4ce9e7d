import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { IconChartBar } from '@tabler/icons-react';
import { lazy } from 'react';

// recharts comes with these pages only: the workspace app's first load does not carry it.
const ProjectChartsPage = lazy(() => import('./ProjectChartsPage.tsx').then((m) => ({ default: m.ProjectChartsPage })));
const DashboardsPage = lazy(() => import('./DashboardsPage.tsx').then((m) => ({ default: m.DashboardsPage })));
const DashboardPage = lazy(() => import('./DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })));
const PublicChartPage = lazy(() => import('./PublicChartPage.tsx').then((m) => ({ default: m.PublicChartPage })));

/** Charts and dashboards (000 §2): a project's charts, and dashboards of charts from projects and channels. */
export default defineWebExtension({
  id: 'dashboards',
  routes: [
    { path: '/projects/:projectId/charts', component: ProjectChartsPage, permission: 'projects:read' },
    { path: '/dashboards', component: DashboardsPage, permission: 'projects:read' },
    { path: '/dashboards/:dashboardId', component: DashboardPage, permission: 'projects:read' },
    { path: '/dashboards/:dashboardId/charts/:chartId', component: DashboardPage, permission: 'projects:read' },
    // Shared charts and dashboards, for anyone with the link (research keeps the links).
    { path: '/p/chart/:shareToken', component: PublicChartPage, public: true },
    { path: '/p/dashboard/:shareToken', component: PublicChartPage, public: true },
  ],
  navigation: [{ label: 'Dashboards', to: '/dashboards', permission: 'projects:read', icon: IconChartBar }],
});
