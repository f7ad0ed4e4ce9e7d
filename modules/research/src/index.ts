import {
  defineModule,
  extensionsModule,
  workspacesModule,
  type ModuleContext,
  type ModuleGraphql,
} from '@fieldbook/core';
import { researchPluginData } from './extensions/plugin-data.ts';
import { researchServices, type ResearchServices } from './services.ts';

export type { ProjectChartFigures, ResearchServices } from './services.ts';
export type { NotificationToSend } from './notification-emails/send.ts';
export { NOTE_CONTENT_CHANGED } from './events/publish.ts';
export { plainText, type RichTextNode } from './notes/rich-text.ts';
export type { ShareTypeProvider } from './sharing/types.ts';
export type { ShareRow } from './sharing/share-row.ts';
export type { ChartItem } from './charts/data.ts';
import { shareTypesOf } from './sharing/types.ts';
import { projectsPart } from './projects/index.ts';
import { accessRequestsPart } from './access-requests/index.ts';
import { foldersPart } from './folders/index.ts';
import { notesPart } from './notes/index.ts';
import { insightsPart } from './insights/index.ts';
import { highlightsPart } from './highlights/index.ts';
import { provenancePart } from './provenance/index.ts';
import { trashPart } from './trash/index.ts';
import { tagsPart } from './tags/index.ts';
import { fieldsPart } from './fields/index.ts';
import { sharingPart } from './sharing/index.ts';
import { peoplePart } from './people/index.ts';
import { commentCreatedSubscriber, commentsPart } from './comments/index.ts';
import { notificationEmailJob } from './notification-emails/job.ts';
import { activityPart } from './activity/index.ts';
import { followActivitySubscriber, followsPart } from './follows/index.ts';
import { digestJob, digestSweepJob } from './digests/digest-job.ts';
import { unsubscribeRoutes } from './digests/routes.ts';
import { viewsPart } from './views/index.ts';
import { chartsPart } from './charts/index.ts';
import { dataRetentionJob, dataRetentionSweepJob, retentionPart } from './retention/index.ts';
import { transferJobs, transferRoutes, transfersPart } from './transfers/index.ts';

/**
 * The research repository: projects, folders, notes, insights, highlights, tags, fields and
 * people. Each concept lives in its own folder and contributes its part of the GraphQL schema.
 */
type ResearchPart = (ctx: ModuleContext) => ModuleGraphql;
const parts: readonly ResearchPart[] = [
  projectsPart,
  foldersPart,
  notesPart,
  insightsPart,
  highlightsPart,
  provenancePart,
  trashPart,
  tagsPart,
  fieldsPart,
  sharingPart,
  peoplePart,
  commentsPart,
  followsPart,
  activityPart,
  viewsPart,
  chartsPart,
  retentionPart,
  transfersPart,
  accessRequestsPart,
];

const researchModule = defineModule({
  name: 'research',
  dependsOn: [workspacesModule, extensionsModule],
  // Plugins' note and project capabilities are made of research's own rules.
  services: (ctx): ResearchServices => {
    ctx.deps.extensions.provideData(researchPluginData(ctx.events));
    return researchServices(ctx.events, shareTypesOf(ctx), ctx.jobs);
  },
  graphql: (ctx) => parts.map((part) => part(ctx)),
  jobs: (ctx) => [
    notificationEmailJob(ctx),
    dataRetentionSweepJob(ctx),
    dataRetentionJob(ctx),
    digestSweepJob(ctx),
    digestJob(ctx),
    ...transferJobs(ctx),
  ],
  events: (ctx) => [commentCreatedSubscriber(ctx), followActivitySubscriber(ctx)],
  routes: (router, ctx) => {
    transferRoutes(router, ctx);
    unsubscribeRoutes(router, ctx);
  },
});

export default researchModule;
