import type { IResolvers } from '@graphql-tools/utils';
import type { RequestContext } from '@fieldbook/core';
import { withFilterErrors } from '../filter-errors.ts';
import { compileSearch, parseSearchParams } from '../filters/index.ts';
import { searchAccess } from '../engine/access.ts';
import type { SearchEngine, SearchResults } from '../engine/engine.ts';

/** The search query: parameters checked and compiled by the filter model, answered by the engine. */
export function searchResolvers(engine: SearchEngine): IResolvers<unknown, RequestContext> {
  return {
    Query: {
      search: async (_: unknown, args: { input: unknown }, ctx: RequestContext): Promise<SearchResults> => {
        const { viewer, workspace, membership } = ctx.authorize('projects:read');
        const compiled = withFilterErrors(() =>
          compileSearch(parseSearchParams(args.input), { now: new Date(), userId: viewer.userId }),
        );
        const access = await ctx.tx((trx) => searchAccess(trx, workspace.id, viewer.userId, membership));
        return engine.search({ workspaceId: workspace.id, userId: viewer.userId, access, compiled });
      },
    },
  };
}
