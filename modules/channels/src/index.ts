import { defineModule, workspacesModule } from '@fieldbook/core';
import { mountChannelRoutes } from './imports/routes.ts';
import { channelImportJob } from './imports/job.ts';
import { channelsGraphql } from './resolvers.ts';
import { channelsServices } from './services.ts';
import { datasetsGraphql } from './datasets/graphql.ts';
import { similarGraphql } from './similar/graphql.ts';
import { sharingGraphql } from './sharing/graphql.ts';

export type { ChannelsServices, ChannelLevel } from './services.ts';

/**
 * Channels of customer feedback (000 §2, 001 §3.4): channels hold datasets of data points that
 * import sources bring in (a CSV file, the REST API, and provider sources from plugins).
 */
const channelsModule = defineModule({
  name: 'channels',
  dependsOn: [workspacesModule],
  graphql: (ctx) => [channelsGraphql(ctx), datasetsGraphql(), similarGraphql(), sharingGraphql(ctx)],
  jobs: (ctx) => [channelImportJob(ctx)],
  routes: (router, ctx) => mountChannelRoutes(router, ctx),
  services: (ctx) => channelsServices(ctx),
});

export default channelsModule;
