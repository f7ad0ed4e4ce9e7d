import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { surveysTypeDefs } from './schema.ts';
import { importSurvey } from './survey.ts';

export function surveysGraphql(ctx: Pick<ModuleContext, 'events' | 'config'>): ModuleGraphql {
  return {
    typeDefs: surveysTypeDefs,
    resolvers: {
      Mutation: {
        importSurvey: (_p: unknown, args: Record<string, unknown>, rc: RequestContext) =>
          importSurvey(rc, ctx.events, ctx.config.channels.maximumChannelsDataPoints, args),
      },
    },
  };
}
