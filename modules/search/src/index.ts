import { defineModule, workspacesModule } from '@fieldbook/core';

/**
 * Universal search: the filter form model and its compiler live in `./filters` (shared with the
 * web app); the search engines and the GraphQL part build on them.
 */
const searchModule = defineModule({
  name: 'search',
  dependsOn: [workspacesModule],
});

export default searchModule;
