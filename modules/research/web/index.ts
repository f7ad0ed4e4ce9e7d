import { defineWebExtension } from '@fieldbook/extensions-sdk/web';

/**
 * The research module's web part, mounted by the web app at build time. Its pages (projects,
 * notes, insights) join `routes` and `navigation` as the module grows.
 */
export default defineWebExtension({
  id: 'research',
  routes: [],
  navigation: [],
});
