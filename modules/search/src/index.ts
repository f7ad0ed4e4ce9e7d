import { defineModule, workspacesModule, type ModuleContext } from '@fieldbook/core';
import { searchAccess } from './engine/access.ts';
import type { SearchEngine } from './engine/engine.ts';
import { searchPart } from './api/index.ts';
import { feedsPart } from './feeds/index.ts';
import { ensureIndexableMatches } from './engine/postgres/indexable-matches.ts';
import { PostgresSearchEngine } from './engine/postgres/postgres-engine.ts';
import { kickOnChanges, switchOutbox, typesenseEngineFor, typesenseJobs } from './engine/typesense/index.ts';
import { reindexPart } from './reindex/index.ts';
import { SearchTurns } from './engine/turns.ts';

export type {
  SearchEngine,
  SearchAccess,
  SearchDocument,
  SearchDocumentRef,
  SearchHit,
  SearchRequest,
  SearchResults,
  SearchTypeCount,
  ReindexProgress,
} from './engine/engine.ts';
export type { SearchBounds } from './engine/postgres/bounds.ts';
export { PostgresSearchEngine } from './engine/postgres/postgres-engine.ts';
export { SearchTurns, searchesBusy, type SearchTurnSettings } from './engine/turns.ts';
export { searchAccess } from './engine/access.ts';
export { compileSearch, parseSearchParams } from './filters/index.ts';

/**
 * Universal search: the filter form model and its compiler live in `./filters` (shared with the
 * web app); the engine answers compiled searches, and the GraphQL part exposes them. PostgreSQL
 * is the engine unless another is configured.
 */
/** One engine per Fieldbook, shared by the search API and other modules' retrieval (Ask). */
const engines = new WeakMap<object, SearchEngine>();
function engineOf(ctx: ModuleContext): SearchEngine {
  let engine = engines.get(ctx.db);
  if (!engine) {
    engine = new SearchTurns(
      typesenseEngineFor(ctx) ?? new PostgresSearchEngine(ctx.db.app, ctx.config.search),
      ctx.config.searchConcurrency,
    );
    engines.set(ctx.db, engine);
  }
  return engine;
}

/** What other modules use of search: its engine, and the rule for what a person may read. */
export interface SearchServices {
  engine: SearchEngine;
  access: typeof searchAccess;
}

const searchModule = defineModule({
  name: 'search',
  dependsOn: [workspacesModule],
  services: (ctx): SearchServices => ({ engine: engineOf(ctx), access: searchAccess }),
  graphql: (ctx) => {
    // Searches themselves (PostgreSQL engine) and filters on reads (Typesense reindex) both match text.
    void ensureIndexableMatches(ctx.db.owner, ctx.logger).catch((err: unknown) =>
      ctx.logger.error({ err }, 'could not prepare text matching for search'),
    );
    const engine = engineOf(ctx);
    return [searchPart(ctx, engine), feedsPart(ctx), reindexPart(engine, ctx.jobs)];
  },
  jobs: (ctx) => {
    const typesense = typesenseEngineFor(ctx);
    // With Typesense the research tables' triggers fill the outbox and jobs drain it; without, the
    // triggers stop at an empty switch table.
    void switchOutbox(ctx, typesense !== null);
    if (!typesense) return [];
    kickOnChanges(ctx);
    return typesenseJobs(typesense, ctx.db.app, ctx.logger, ctx.jobs);
  },
});

export default searchModule;
