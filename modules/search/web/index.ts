import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { IconSearch } from '@tabler/icons-react';
import { ExplorePage } from './feeds/ExplorePage.tsx';
import { FeedPage } from './feeds/FeedPage.tsx';
import { SearchIndexPage } from './reindex/SearchIndexPage.tsx';
import { SearchPage } from './search/SearchPage.tsx';

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
