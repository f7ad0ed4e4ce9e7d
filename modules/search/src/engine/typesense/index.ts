import type { ModuleContext } from '@fieldbook/core';
import { typesenseClient } from './client.ts';
import { TypesenseEngine } from './engine.ts';

export { TypesenseEngine } from './engine.ts';
export { typesenseClient } from './client.ts';
export {
  typesenseJobs,
  queueIndex,
  queueReindex,
  queueChanges,
  INDEX_QUEUE,
  REINDEX_QUEUE,
  CHANGES_QUEUE,
  type IndexJob,
  type ReindexJob,
  type ChangesJob,
} from './jobs.ts';
export { drainWorkspace, workspacesWithChanges, setOutbox, PROJECT_ITEMS } from './outbox.ts';
export { switchOutbox, kickOnChanges, CHANGES_TOPIC } from './keep-in-step.ts';

const engines = new WeakMap<object, TypesenseEngine>();

/** The Typesense engine when `TYPESENSE_URL` is set, one per running app (its GraphQL and its jobs share it). */
export function typesenseEngineFor(ctx: Pick<ModuleContext, 'config' | 'db'>): TypesenseEngine | null {
  const { url, apiKey } = ctx.config.typesense;
  if (!url) return null;
  let engine = engines.get(ctx.config);
  if (!engine) {
    engine = new TypesenseEngine({ client: typesenseClient({ url, apiKey: apiKey ?? '' }), db: ctx.db.app });
    engines.set(ctx.config, engine);
  }
  return engine;
}
