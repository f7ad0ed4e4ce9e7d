import type { WebNavItem, WebRoute } from '@fieldbook/extensions-sdk/web';
import { IconFolders, IconHistory, IconTrash, IconUserCircle, IconUsers } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import { createElement, lazy } from 'react';
import { PROJECT_TABS } from './projects/tabs.ts';

// Each page's code loads when it is opened, not with the workspace app.
const ImportPage = lazy(() => import('./imports/ImportPage.tsx').then((m) => ({ default: m.ImportPage })));
const FolderPage = lazy(() => import('./folders/FolderPage.tsx').then((m) => ({ default: m.FolderPage })));
const RecentPage = lazy(() => import('./home/RecentPage.tsx').then((m) => ({ default: m.RecentPage })));
const HomeResearchCard = lazy(() => import('./home/RecentPage.tsx').then((m) => ({ default: m.HomeResearchCard })));
const ContactsPage = lazy(() => import('./people/ContactsPage.tsx').then((m) => ({ default: m.ContactsPage })));
const PersonPage = lazy(() => import('./people/PersonPage.tsx').then((m) => ({ default: m.PersonPage })));
const ProjectPage = lazy(() => import('./project/ProjectPage.tsx').then((m) => ({ default: m.ProjectPage })));
const ProjectTabRedirect = lazy(() =>
  import('./project/ProjectPage.tsx').then((m) => ({ default: m.ProjectTabRedirect })),
);
const ProjectsPage = lazy(() => import('./projects/ProjectsPage.tsx').then((m) => ({ default: m.ProjectsPage })));
const ProjectSettingsPage = lazy(() =>
  import('./settings/ProjectSettingsPage.tsx').then((m) => ({ default: m.ProjectSettingsPage })),
);
const TagPage = lazy(() => import('./tags/TagPage.tsx').then((m) => ({ default: m.TagPage })));
const TrashPage = lazy(() => import('./trash/TrashPage.tsx').then((m) => ({ default: m.TrashPage })));
const ViewPage = lazy(() => import('./views/ViewPage.tsx').then((m) => ({ default: m.ViewPage })));
const ViewPresentPage = lazy(() => import('./views/PresentPage.tsx').then((m) => ({ default: m.ViewPresentPage })));
const InsightsPresentPage = lazy(() =>
  import('./views/PresentPage.tsx').then((m) => ({ default: m.InsightsPresentPage })),
);

const to = (path: string) => () => createElement(Navigate, { to: path, replace: true });

const SETTINGS_SECTIONS = ['fields', 'note-fields', 'insight-fields', 'access', 'export', 'data-retention'];

/** Projects, project pages and settings, folders, tags, people, recent work and the trash (000 §2). */
export const browseRoutes: WebRoute[] = [
  { path: '/projects', component: ProjectsPage, permission: 'projects:read' },
  { path: '/projects/new', component: ProjectsPage, permission: 'projects:read' },
  { path: '/projects/import', component: ImportPage, permission: 'projects:create' },
  ...PROJECT_TABS.map((t) => ({ path: `/projects/${t.value}`, component: ProjectsPage, permission: 'projects:read' })),
  { path: '/browse', component: to('/projects'), permission: 'projects:read' },
  { path: '/browse/folders', component: to('/projects/folders'), permission: 'projects:read' },
  { path: '/browse/created-by-you', component: to('/projects/your-projects'), permission: 'projects:read' },
  { path: '/browse/shared-with-you', component: to('/projects/shared-with-you'), permission: 'projects:read' },
  { path: '/shared', component: to('/projects/shared-with-you'), permission: 'projects:read' },
  { path: '/projects/:projectId', component: ProjectPage, permission: 'projects:read' },
  { path: '/projects/:projectId/readme', component: ProjectPage, permission: 'projects:read' },
  { path: '/projects/:projectId/tags', component: ProjectPage, permission: 'projects:read' },
  { path: '/projects/:projectId/tags/b/:tagBoardId', component: ProjectPage, permission: 'projects:read' },
  { path: '/projects/:projectId/highlights', component: ProjectTabRedirect, permission: 'projects:read' },
  { path: '/projects/:projectId/insights', component: ProjectTabRedirect, permission: 'projects:read' },
  { path: '/projects/:projectId/notes', component: ProjectTabRedirect, permission: 'projects:read' },
  { path: '/projects/:projectId/v/:viewId', component: ViewPage, permission: 'projects:read' },
  { path: '/projects/:projectId/v/:viewId/present', component: ViewPresentPage, permission: 'projects:read' },
  {
    path: '/projects/:projectId/v/:viewId/present/:insightId',
    component: ViewPresentPage,
    permission: 'projects:read',
  },
  { path: '/projects/:projectId/insights/present', component: InsightsPresentPage, permission: 'projects:read' },
  {
    path: '/projects/:projectId/insights/present/:insightId',
    component: InsightsPresentPage,
    permission: 'projects:read',
  },
  { path: '/projects/:projectId/settings', component: ProjectSettingsPage, permission: 'projects:read' },
  ...SETTINGS_SECTIONS.map((s) => ({
    path: `/projects/:projectId/settings/${s}`,
    component: ProjectSettingsPage,
    permission: 'projects:read',
  })),
  { path: '/folders/:folderId', component: FolderPage, permission: 'projects:read' },
  { path: '/folders/:folderId/projects', component: FolderPage, permission: 'projects:read' },
  { path: '/folders/:folderId/channels', component: FolderPage, permission: 'projects:read' },
  { path: '/folders/:folderId/insights', component: FolderPage, permission: 'projects:read' },
  { path: '/tags/:tagId', component: TagPage, permission: 'tags:read' },
  { path: '/contacts', component: ContactsPage, permission: 'people:read' },
  { path: '/contacts/:personId', component: PersonPage, permission: 'people:read' },
  { path: '/people/:personId', component: PersonPage, permission: 'people:read' },
  { path: '/recent', component: RecentPage, permission: 'notes:read' },
  { path: '/recent/:filter', component: RecentPage, permission: 'notes:read' },
  { path: '/your-work', component: RecentPage, permission: 'notes:read' },
  { path: '/your-work/insights', component: RecentPage, permission: 'notes:read' },
  { path: '/your-work/projects', component: RecentPage, permission: 'notes:read' },
  { path: '/settings/trash', component: TrashPage, permission: 'projects:delete' },
];

export const browseNavigation: WebNavItem[] = [
  { label: 'Projects', to: '/projects', permission: 'projects:read', icon: IconFolders },
  { label: 'Recent', to: '/recent', permission: 'notes:read', icon: IconHistory },
  { label: 'Your work', to: '/your-work', permission: 'notes:read', icon: IconUserCircle },
  { label: 'Contacts', to: '/contacts', permission: 'people:read', icon: IconUsers },
  { label: 'Trash', to: '/settings/trash', permission: 'projects:delete', icon: IconTrash },
];

export const browseSlots = { 'home.card/v1': HomeResearchCard } as const;
