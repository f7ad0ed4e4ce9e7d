import type { IResolvers } from '@graphql-tools/utils';
import type { JobQueue, ModuleGraphql, RequestContext } from '@fieldbook/core';
import type { SearchEngine } from '../engine/engine.ts';
import { queueReindex } from '../engine/typesense/jobs.ts';
import { reindexTypeDefs } from './schema.ts';
import { UNDER_WAY, notNeeded, readReindex, reindexQueued, type ReindexStatus } from './status.ts';

/** Whether the engine keeps an index of its own that a reindex rebuilds. */
const hasIndex = (engine: SearchEngine): boolean => engine.name !== 'postgres';

function reindexResolvers(engine: SearchEngine, jobs: JobQueue): IResolvers<unknown, RequestContext> {
  return {
    Query: {
      searchReindex: async (_p: unknown, _a: unknown, ctx: RequestContext): Promise<ReindexStatus> => {
        const { workspace } = ctx.authorize('workspace:admin');
        if (!hasIndex(engine)) return notNeeded(engine.name);
        return ctx.tx((trx) => readReindex(trx, engine.name, workspace.id));
      },
    },
    Mutation: {
      reindexSearch: async (_p: unknown, _a: unknown, ctx: RequestContext): Promise<ReindexStatus> => {
        const { viewer, workspace } = ctx.authorize('workspace:admin');
        if (!hasIndex(engine)) return notNeeded(engine.name);
        return ctx.tx(async (trx) => {
          // One reindex at a time per workspace: two admins asking at once are decided one after the other.
          await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`search-reindex:${workspace.id}`]);
          const current = await readReindex(trx, engine.name, workspace.id);
          if (UNDER_WAY.includes(current.state)) return current;
          await reindexQueued(trx, workspace.id, viewer.userId);
          // Queued in the same transaction: the job exists exactly when the row says QUEUED.
          await queueReindex(jobs, workspace.id, trx);
          return readReindex(trx, engine.name, workspace.id);
        });
      },
    },
  };
}

/** The reindex mutation and its progress query. */
export const reindexPart = (engine: SearchEngine, jobs: JobQueue): ModuleGraphql => ({
  typeDefs: reindexTypeDefs,
  resolvers: reindexResolvers(engine, jobs),
});
