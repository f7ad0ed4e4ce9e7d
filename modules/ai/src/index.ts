import { defineModule, workspacesModule, type DomainEvent, type ModuleContext } from '@fieldbook/core';
import channels from '@fieldbook/channels';
import research, { NOTE_CONTENT_CHANGED } from '@fieldbook/research';
import search, { type SearchServices } from '@fieldbook/search';
import { suggestionsPart } from './highlights/index.ts';
import { askPart, askRoutes } from './ask/index.ts';
import type { EmergingThemesOf } from './ask/answer.ts';
import { embeddingJobs } from './embeddings/embeddings.ts';
import { settingsPart } from './settings/settings.ts';
import { scheduleSteps, stepsJobs, stepsPart, type StepsDeps } from './steps/index.ts';
import { summariesPart, summaryRoutes } from './summaries/index.ts';
import { translationPart } from './translation/translate.ts';

export { EMBEDDING_BACKFILL_QUEUE, backfillEmbeddings, nearestByEmbedding } from './embeddings/embeddings.ts';
export { suggestedQuestions, SUGGESTED_QUESTIONS } from './ask/suggested.ts';
export { NOT_ENOUGH_CONTENT, VIEWERS_CANNOT_SUMMARIZE } from './summaries/summarize.ts';

type AiContext = ModuleContext<
  readonly [typeof workspacesModule, typeof search, typeof research],
  readonly [typeof channels]
>;
const stepsDeps = (ctx: AiContext): StepsDeps => ({
  db: ctx.db.app,
  ai: ctx.ai,
  research: ctx.deps.research,
  jobs: ctx.jobs,
  logger: ctx.logger,
  memberContext: (workspaceId, userId) => ctx.memberContext(workspaceId, userId),
  settings: ctx.config.aiSteps,
});

const searchOf = (ctx: ModuleContext<readonly [typeof search]>): SearchServices => ctx.deps.search;
const emergingOf = (ctx: ModuleContext<readonly [], readonly [typeof channels]>): EmergingThemesOf | null => {
  const service = ctx.deps.channels;
  return service ? (member, channelId) => service.emergingThemes(member, channelId) : null;
};

/**
 * AI you can check: summaries of notes and insights and Ask, on core's one provider. Every quote
 * is verified in its source before anyone sees it; every AI-made object records what made it.
 * With no model configured both work locally (quoted sentences, lexical retrieval).
 */
const aiModule = defineModule({
  name: 'ai',
  dependsOn: [workspacesModule, search, research],
  // With channels loaded, Ask draws on their themes and shows how those grew.
  optionalDependsOn: [channels],
  graphql: (ctx) => [
    settingsPart(ctx.ai, ctx.jobs),
    summariesPart(ctx.ai),
    askPart(ctx.ai, searchOf(ctx), emergingOf(ctx)),
    translationPart(ctx.ai),
    suggestionsPart(ctx.ai, ctx.deps.research),
    stepsPart(ctx.ai, ctx.deps.research),
  ],
  jobs: (ctx) => [...embeddingJobs(ctx.db.app, ctx.ai), ...stepsJobs(stepsDeps(ctx))],
  // A note's new content sets off the workspace's AI steps (002 §3), once its edits are quiet.
  events: (ctx) =>
    ['note:created', NOTE_CONTENT_CHANGED].map((event) => ({
      event,
      name: 'ai-steps',
      batchSize: 20,
      handler: (e: DomainEvent) => scheduleSteps(stepsDeps(ctx), [e]),
      // One statement queues the batch's jobs: they all succeed or fail together.
      handleBatch: async (events: ReadonlyArray<DomainEvent>) => {
        await scheduleSteps(stepsDeps(ctx), events);
        return events.map(() => null);
      },
    })),
  routes: (router, ctx) => {
    summaryRoutes(router, ctx);
    askRoutes(router, ctx, searchOf(ctx), emergingOf(ctx));
  },
});

export default aiModule;

export { streamEvents, type EventSink } from './sse.ts';
export { readJson } from './summaries/index.ts';
