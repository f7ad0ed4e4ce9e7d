import type { WebNavItem, WebRoute } from '@fieldbook/extensions-sdk/web';
import { IconFolders, IconHistory, IconTrash, IconUserCircle, IconUsers } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import { createElement } from 'react';
import { FolderPage } from './folders/FolderPage.tsx';
import { HomeResearchCard, RecentPage } from './home/RecentPage.tsx';
import { ContactsPage } from './people/ContactsPage.tsx';
import { PersonPage } from './people/PersonPage.tsx';
import { ProjectPage, ProjectTabRedirect } from './project/ProjectPage.tsx';
import { PROJECT_TABS, ProjectsPage } from './projects/ProjectsPage.tsx';
import { ProjectSettingsPage } from './settings/ProjectSettingsPage.tsx';
import { TagPage } from './tags/TagPage.tsx';
import { TrashPage } from './trash/TrashPage.tsx';
import { ViewPage } from './views/ViewPage.tsx';

const to = (path: string) => () => createElement(Navigate, { to: path, replace: true });

const SETTINGS_SECTIONS = ['fields', 'note-fields', 'insight-fields', 'access', 'export', 'data-retention'];

/** Projects, project pages and settings, folders, tags, people, recent work and the trash (000 §2). */
export const browseRoutes: WebRoute[] = [
  { path: '/projects', component: ProjectsPage, permission: 'projects:read' },
  { path: '/projects/new', component: ProjectsPage, permission: 'projects:read' },
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
  { path: '/projects/:projectId/settings', component: ProjectSettingsPage, permission: 'projects:read' },
  ...SETTINGS_SECTIONS.map((s) => ({ path: `/projects/:projectId/settings/${s}`, component: ProjectSettingsPage, permission: 'projects:read' })),
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
