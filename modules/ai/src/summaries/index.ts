import type Router from '@koa/router';
import {
  badInput,
  validate,
  type AiService,
  type ModuleContext,
  type ModuleGraphql,
  type RequestContext,
} from '@fieldbook/core';
import { streamEvents } from '../sse.ts';
import { frameworkOptions } from './frameworks.ts';
import { readSummary, summarize, summarizeInput, summarizer } from './summarize.ts';

export const summaryTypeDefs = /* GraphQL */ `
  extend type Query {
    "The summary frameworks, the default list (chronological, summary, by topics, customer call, usability test, sales SPICED) first."
    summaryFrameworks: [SummaryFrameworkOption!]!
    "The stored summary of a note or insight the caller can read; null when it has none."
    aiSummary(objectType: SummaryObjectType!, objectId: ID!): AiSummary
  }
  extend type Mutation {
    "Writes (or rewrites) a note's or insight's summary; every quote is verified in its source. Viewers cannot generate summaries."
    summarize(input: SummarizeInput!): AiSummary!
  }
  enum SummaryObjectType {
    NOTE
    INSIGHT
  }
  enum SummaryKind {
    chapter
    paragraph
    streaming
  }
  enum SummaryFramework {
    ByQuestion
    ByThemes
    Chronological
    CustomPrompt
    CustomerCall
    Essential
    FeatureRequests
    ProductPRD
    RecommendedActions
    ResearchReport
    SalesMEDICC
    SalesSPICED
    Summary
    UsabilityTest
    VoiceOfCustomerReport
  }
  enum SummaryStatus {
    OK
    NOT_ENOUGH_DATA
  }
  type SummaryFrameworkOption {
    framework: SummaryFramework!
    label: String!
    isDefault: Boolean!
  }
  type SummarySection {
    title: String!
    startTime: String
    text: String!
  }
  type SummaryQuote {
    itemId: ID!
    text: String!
  }
  "What made an AI-made object: model, endpoint host, prompt version, inputs and tokens."
  type AiProvenance {
    model: String!
    endpointHost: String
    promptVersion: String!
    inputIds: [ID!]!
    promptTokens: Int!
    completionTokens: Int!
    createdAt: DateTime!
    "True for a summary made without a model (sentences quoted from the source)."
    local: Boolean!
    "e.g. Written by AI (gpt-4o-mini) from 1 note, 3 highlights"
    label: String!
  }
  type AiSummary {
    id: ID
    objectType: SummaryObjectType!
    objectId: ID!
    kind: SummaryKind!
    framework: SummaryFramework!
    status: SummaryStatus!
    "'Not enough content to summarize' with NOT_ENOUGH_DATA."
    message: String
    text: String!
    sections: [SummarySection!]!
    quotes: [SummaryQuote!]!
    "Quotes the model wrote that were not found in their source; never shown."
    droppedQuotes: Int!
    contributors: [ID!]!
    updatedAt: DateTime
    provenance: AiProvenance
  }
  input SummarizeInput {
    objectType: SummaryObjectType!
    objectId: ID!
    kind: SummaryKind
    framework: SummaryFramework
    "Needed with CustomPrompt; at most 2000 characters."
    customPrompt: String
  }
`;

export function summariesPart(ai: AiService): ModuleGraphql {
  return {
    typeDefs: summaryTypeDefs,
    resolvers: {
      Query: {
        summaryFrameworks: () => frameworkOptions(),
        aiSummary: (_: unknown, args: { objectType: unknown; objectId: unknown }, ctx: RequestContext) =>
          readSummary(ctx, args.objectType, args.objectId),
      },
      Mutation: {
        summarize: (_: unknown, args: { input: unknown }, ctx: RequestContext) => summarize(ctx, ai, args.input),
      },
    },
  };
}

/** POST /api/ai/summaries/stream with the SummarizeInput as JSON: `part` events as written, then `done`. */
export function summaryRoutes(router: Router, ctx: ModuleContext): void {
  router.post('/api/ai/summaries/stream', async (koa) => {
    const request = await ctx.requestContext(koa);
    const input = await readJson(koa.req);
    // Checks that fail before any text is written answer as plain HTTP errors.
    summarizer(request);
    validate(summarizeInput, input);
    streamEvents(koa, async (sink) => {
      const summary = await summarize(request, ctx.ai, input, (part) => sink.send('part', part), sink.signal);
      sink.send('done', summary);
    });
  });
}

export async function readJson(req: NodeJS.ReadableStream, limit = 64 * 1024): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += b.length;
    if (size > limit) {
      throw badInput('body', `The request body can be at most ${limit / 1024} KB.`);
    }
    chunks.push(b);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
  } catch {
    throw badInput('body', 'The request body must be JSON.');
  }
}
