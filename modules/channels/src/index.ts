import { defineModule, workspacesModule } from '@fieldbook/core';
import { mountChannelRoutes } from './imports/routes.ts';
import { channelImportJob } from './imports/job.ts';
import { channelsGraphql } from './resolvers.ts';
import { themesGraphql } from './themes/graphql.ts';
import { clusteringJob } from './themes/run.ts';
import { placementJob } from './themes/place.ts';
import { channelsServices } from './services.ts';

/**
 * Channels of customer feedback (000 §2, 001 §3.4): channels hold datasets of data points that
 * import sources bring in (a CSV file, the REST API, and provider sources from plugins).
 */
const channelsModule = defineModule({
  name: 'channels',
  dependsOn: [workspacesModule],
  graphql: (ctx) => [channelsGraphql(ctx), themesGraphql(ctx)],
  jobs: (ctx) => [channelImportJob(ctx), clusteringJob(ctx), placementJob(ctx)],
  routes: (router, ctx) => mountChannelRoutes(router, ctx),
  services: (ctx) => channelsServices(ctx),
});

export type { ChannelsServices, EmergingTheme } from './services.ts';
export default channelsModule;
