import { defineModule, workspacesModule } from '@fieldbook/core';
import { searchPart } from './api/index.ts';
import { feedsPart } from './feeds/index.ts';
import { PostgresSearchEngine } from './engine/postgres/postgres-engine.ts';
import { typesenseEngineFor, typesenseJobs } from './engine/typesense/index.ts';

export type { SearchEngine, SearchAccess, SearchDocument, SearchDocumentRef, SearchHit, SearchRequest, SearchResults, ReindexProgress } from './engine/engine.ts';
export { PostgresSearchEngine } from './engine/postgres/postgres-engine.ts';

/**
 * Universal search: the filter form model and its compiler live in `./filters` (shared with the
 * web app); the engine answers compiled searches, and the GraphQL part exposes them. PostgreSQL
 * is the engine unless another is configured.
 */
const searchModule = defineModule({
  name: 'search',
  dependsOn: [workspacesModule],
  graphql: (ctx) => [searchPart(ctx, typesenseEngineFor(ctx) ?? new PostgresSearchEngine(ctx.db.app)), feedsPart(ctx)],
  jobs: (ctx) => {
    const typesense = typesenseEngineFor(ctx);
    return typesense ? typesenseJobs(typesense, ctx.logger) : [];
  },
});

export default searchModule;
