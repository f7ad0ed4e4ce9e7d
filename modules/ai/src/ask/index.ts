import type Router from '@koa/router';
import { validate, type AiService, type ModuleContext, type ModuleGraphql, type RequestContext } from '@fieldbook/core';
import type { SearchServices } from '@fieldbook/search';
import { callerOf } from '../access.ts';
import { streamEvents } from '../sse.ts';
import { readJson } from '../summaries/index.ts';
import { ask, askInput, type AnswerBlock, type EmergingThemesOf } from './answer.ts';
import { suggestedQuestions } from './suggested.ts';

export const askTypeDefs = /* GraphQL */ `
  extend type Query {
    "Answers a question from everything the caller may read, citing sources; every quote is verified verbatim in its source."
    ask(input: AskInput!): AiAnswer!
    "Questions to start from, chosen by job function (marketing, sales, support, customer success, finance, operations, legal); others get the general list."
    suggestedQuestions(jobFunction: String): [String!]!
  }
  input AskInput {
    "1 to 500 characters."
    question: String!
  }
  enum CitationType {
    highlight
    insight
    note
    theme
    tag
  }
  type Citation {
    id: ID!
    type: CitationType!
    parentId: ID
    title: String!
    projectTitle: String!
    text: String!
    quote: String!
    citationReferenceId: String!
    url: String
  }
  type AnswerHeadingBlock {
    level: Int!
    content: String!
  }
  type AnswerTextBlock {
    content: String!
    citations: [Citation!]!
  }
  "How the themes of a channel the answer draws on grew: data points in the latest period beside the one before."
  type AnswerEmergingThemesBlock {
    channelId: ID!
    channelTitle: String!
    items: [EmergingThemeItem!]!
  }
  type EmergingThemeItem {
    id: ID!
    title: String!
    previousCount: Int!
    currentCount: Int!
  }
  union AnswerBlock = AnswerHeadingBlock | AnswerTextBlock | AnswerEmergingThemesBlock
  type AiAnswerSummary {
    summary: String!
    citations: [Citation!]!
    numProjects: Int!
    numHighlights: Int!
    numChannels: Int!
    numItems: Int!
    isQuestion: Boolean!
  }
  type AiAnswer {
    question: String!
    blocks: [AnswerBlock!]!
    summary: AiAnswerSummary!
    "Quotes the model wrote, cited or in quotation marks in its text, that were not found in their source; never shown."
    droppedQuotes: Int!
    "Statements left out because every quote they cited was dropped."
    unsupportedClaims: Int!
    local: Boolean!
    label: String!
    model: String!
    promptVersion: String!
  }
`;

export function askPart(
  ai: AiService,
  search: SearchServices,
  emergingThemesOf: EmergingThemesOf | null,
): ModuleGraphql {
  return {
    typeDefs: askTypeDefs,
    resolvers: {
      Query: {
        ask: (_: unknown, args: { input: unknown }, ctx: RequestContext) =>
          ask(ctx, ai, search, args.input, undefined, undefined, emergingThemesOf),
        suggestedQuestions: (_: unknown, args: { jobFunction?: string | null }, ctx: RequestContext) => {
          ctx.authorize('projects:read');
          return suggestedQuestions(args.jobFunction);
        },
      },
      AnswerBlock: {
        __resolveType: (b: AnswerBlock) =>
          ({ heading: 'AnswerHeadingBlock', text: 'AnswerTextBlock', emergingThemes: 'AnswerEmergingThemesBlock' })[
            b.type
          ],
      },
    },
  };
}

/** POST /api/ai/ask/stream with { question }: `sources`, then each verified `block`, then `done`. */
export function askRoutes(
  router: Router,
  ctx: ModuleContext,
  search: SearchServices,
  emergingThemesOf: EmergingThemesOf | null,
): void {
  router.post('/api/ai/ask/stream', async (koa) => {
    const request = await ctx.requestContext(koa);
    callerOf(request, 'projects:read');
    const input = await readJson(koa.req);
    validate(askInput, input);
    streamEvents(koa, async (sink) => {
      const answer = await ask(
        request,
        ctx.ai,
        search,
        input,
        (e) => sink.send(e.event, e.data),
        sink.signal,
        emergingThemesOf,
      );
      sink.send('done', answer);
    });
  });
}
