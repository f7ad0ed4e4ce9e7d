import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { IconSearch } from '@tabler/icons-react';
import { lazy } from 'react';

// Each page's code loads when it is opened, not with the workspace app.
const ExplorePage = lazy(() => import('./feeds/ExplorePage.tsx').then((m) => ({ default: m.ExplorePage })));
const FeedPage = lazy(() => import('./feeds/FeedPage.tsx').then((m) => ({ default: m.FeedPage })));
const SearchIndexPage = lazy(() =>
  import('./reindex/SearchIndexPage.tsx').then((m) => ({ default: m.SearchIndexPage })),
);
const SearchPage = lazy(() => import('./search/SearchPage.tsx').then((m) => ({ default: m.SearchPage })));

/** The search module's web part: /search with its filter form, and saved feeds under /explore (000 §2). */
export default defineWebExtension({
  id: 'search',
  routes: [
    { path: '/search', component: SearchPage, permission: 'projects:read' },
    { path: '/search-next', component: SearchPage, permission: 'projects:read' },
    { path: '/search/index', component: SearchIndexPage, permission: 'workspace:admin' },
    { path: '/explore', component: ExplorePage, permission: 'projects:read' },
    { path: '/explore/:savedFeedId', component: FeedPage, permission: 'projects:read' },
  ],
  navigation: [{ label: 'Search', to: '/search', permission: 'projects:read', icon: IconSearch }],
});
