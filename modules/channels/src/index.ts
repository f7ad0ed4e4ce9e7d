import { defineModule, workspacesModule } from '@fieldbook/core';
import researchModule from '@fieldbook/research';
import { mountChannelRoutes } from './imports/routes.ts';
import { channelImportJob } from './imports/job.ts';
import { channelsGraphql } from './resolvers.ts';
import { channelsServices } from './services.ts';
import { datasetsGraphql } from './datasets/graphql.ts';
import { similarGraphql } from './similar/graphql.ts';
import { sharingGraphql } from './sharing/graphql.ts';
import { insightsGraphql } from './insights/graphql.ts';

export type { ChannelsServices, ChannelLevel } from './services.ts';

/**
 * Channels of customer feedback (000 §2, 001 §3.4): channels hold datasets of data points that
 * import sources bring in (a CSV file, the REST API, and provider sources from plugins).
 */
const channelsModule = defineModule({
  name: 'channels',
  dependsOn: [workspacesModule],
  // With research loaded, selected data points become insights that cite them.
  optionalDependsOn: [researchModule],
  graphql: (ctx) => [channelsGraphql(ctx), datasetsGraphql(), similarGraphql(), sharingGraphql(ctx), ...(ctx.deps.research ? [insightsGraphql(ctx.deps.research)] : [])],
  jobs: (ctx) => [channelImportJob(ctx)],
  routes: (router, ctx) => mountChannelRoutes(router, ctx),
  services: (ctx) => channelsServices(ctx),
});

export default channelsModule;
