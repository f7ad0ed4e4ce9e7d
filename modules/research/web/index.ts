import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { documentNavigation, documentRoutes } from './documents/index.ts';
import { browseNavigation, browseRoutes, browseSlots } from './browse/index.ts';

/**
 * The research module's web part, mounted by the web app at build time. Its pages (projects,
 * notes, insights) join `routes` and `navigation` as the module grows.
 */
export default defineWebExtension({
  id: 'research',
  routes: [...documentRoutes, ...browseRoutes],
  navigation: [...browseNavigation, ...documentNavigation],
  slots: { ...browseSlots },
});
