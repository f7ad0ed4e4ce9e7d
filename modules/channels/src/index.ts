import { defineModule, extensionsModule, workspacesModule } from '@fieldbook/core';
import { connectionsGraphql } from './connections/resolvers.ts';
import { channelRefreshJob } from './connections/refresh.ts';
import researchModule from '@fieldbook/research';
import { mountChannelRoutes } from './imports/routes.ts';
import { channelImportJob } from './imports/job.ts';
import { sourceResolver } from './sources/resolve.ts';
import { surveysGraphql } from './surveys/resolvers.ts';
import { channelsGraphql } from './resolvers.ts';
import { themesGraphql } from './themes/graphql.ts';
import { clusteringJob } from './themes/run.ts';
import { placementJob } from './themes/place.ts';
import { channelsServices } from './services.ts';
import { datasetsGraphql } from './datasets/graphql.ts';
import { similarGraphql } from './similar/graphql.ts';
import { sharingGraphql } from './sharing/graphql.ts';
import { insightsGraphql } from './insights/graphql.ts';

export type { ChannelsServices, ChannelLevel, EmergingTheme, ThemeChartData, ThemeChartInterval } from './services.ts';

/**
 * Channels of customer feedback (000 §2, 001 §3.4): channels hold datasets of data points that
 * import sources bring in (a CSV file, the REST API, and provider sources from plugins).
 */
const channelsModule = defineModule({
  name: 'channels',
  dependsOn: [workspacesModule, extensionsModule],
  // With research loaded, selected data points become insights that cite them.
  optionalDependsOn: [researchModule],
  services: (ctx) => channelsServices(ctx),
  graphql: (ctx) => [
    channelsGraphql(ctx),
    themesGraphql(ctx),
    connectionsGraphql(ctx.deps.extensions, ctx),
    surveysGraphql(ctx),
    datasetsGraphql(),
    similarGraphql(),
    sharingGraphql(ctx),
    ...(ctx.deps.research ? [insightsGraphql(ctx.deps.research)] : []),
  ],
  jobs: (ctx) => [
    channelImportJob(ctx, sourceResolver(ctx.deps.extensions)),
    channelRefreshJob(ctx),
    clusteringJob(ctx),
    placementJob(ctx),
  ],
  routes: (router, ctx) => mountChannelRoutes(router, ctx),
});

export default channelsModule;
