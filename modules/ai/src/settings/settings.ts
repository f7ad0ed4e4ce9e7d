import { z } from 'zod';
import {
  AI_FEATURES,
  AI_MODES,
  AI_MODE_STEPS,
  readAiSettings,
  recordAudit,
  validate,
  writeAiSettings,
  type AiService,
  type AiSettings,
  type JobQueue,
  type ModuleGraphql,
  type RequestContext,
} from '@fieldbook/core';
import { EMBEDDING_BACKFILL_QUEUE } from '../embeddings/embeddings.ts';

/** The largest monthly cap one can set: a billion tokens; leave it empty for no cap. */
export const MAX_TOKEN_CAP = 1_000_000_000;

const updateInput = z
  .object({
    enabled: z.boolean().optional(),
    features: z
      .object(Object.fromEntries(AI_FEATURES.map((f) => [f, z.boolean().optional()])))
      .strict()
      .optional(),
    modes: z
      .object(Object.fromEntries(AI_MODE_STEPS.map((s) => [s, z.enum(AI_MODES).optional()])))
      .strict()
      .optional(),
    monthlyTokenCap: z
      .number()
      .int('monthlyTokenCap must be a whole number of tokens.')
      .min(0, 'monthlyTokenCap must be 0 or more.')
      .max(MAX_TOKEN_CAP, `monthlyTokenCap can be at most ${MAX_TOKEN_CAP.toLocaleString('en-US')} tokens.`)
      .nullable()
      .optional(),
  })
  .strict();

export const settingsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The workspace's AI settings, the configured model (none: local features only) and this month's token use."
    aiSettings: AiSettings!
  }
  extend type Mutation {
    "Workspace admins turn AI and its features on or off, choose automation modes and set the monthly token cap."
    updateAiSettings(input: UpdateAiSettingsInput!): AiSettings!
    "Workspace admins (re)build the embeddings Ask retrieves by meaning with, in the background; false when no embedding model is configured."
    rebuildAiEmbeddings: Boolean!
  }
  enum AiMode {
    On
    Suggest
    Off
  }
  type AiFeatures {
    summaries: Boolean!
    ask: Boolean!
    translation: Boolean!
  }
  type AiModes {
    summarize: AiMode!
    highlights: AiMode!
    tags: AiMode!
    redact: AiMode!
    insights: AiMode!
  }
  type AiModelStatus {
    "False when no OpenAI-compatible endpoint is configured: summaries and Ask then work locally, without a model."
    configured: Boolean!
    chatModel: String
    embeddingModel: String
    endpointHost: String
  }
  type AiUsage {
    month: String!
    promptTokens: Float!
    completionTokens: Float!
    calls: Int!
  }
  type AiSettings {
    enabled: Boolean!
    features: AiFeatures!
    modes: AiModes!
    monthlyTokenCap: Float
    usage: AiUsage!
    model: AiModelStatus!
  }
  input AiFeaturesInput {
    summaries: Boolean
    ask: Boolean
    translation: Boolean
  }
  input AiModesInput {
    summarize: AiMode
    highlights: AiMode
    tags: AiMode
    redact: AiMode
    insights: AiMode
  }
  input UpdateAiSettingsInput {
    enabled: Boolean
    features: AiFeaturesInput
    modes: AiModesInput
    "Tokens per calendar month (UTC), 0 to 1,000,000,000; null for no cap."
    monthlyTokenCap: Float
  }
`;

async function view(ai: AiService, workspaceId: string, settings?: AiSettings) {
  const usage = await ai.usage(workspaceId);
  const s = settings ?? (await ai.settings(workspaceId));
  return {
    ...s,
    usage,
    model: {
      configured: !!ai.model,
      chatModel: ai.model?.chatModel ?? null,
      embeddingModel: ai.model?.embeddingModel ?? null,
      endpointHost: ai.model?.endpointHost ?? null,
    },
  };
}

export function settingsPart(ai: AiService, jobs: JobQueue): ModuleGraphql {
  return {
    typeDefs: settingsTypeDefs,
    resolvers: {
      Query: {
        aiSettings: (_: unknown, __: unknown, ctx: RequestContext) => {
          const { workspace } = ctx.authorize('projects:read');
          return view(ai, workspace.id);
        },
      },
      Mutation: {
        rebuildAiEmbeddings: async (_: unknown, __: unknown, ctx: RequestContext) => {
          const { workspace } = ctx.authorize('aiConfig:manage');
          if (!ai.model?.embeddingModel) return false;
          await ai.ensureAllowed({ workspaceId: workspace.id, userId: null, feature: 'ask' });
          await jobs.send(
            EMBEDDING_BACKFILL_QUEUE,
            { workspaceId: workspace.id },
            { singletonKey: `ai-embeddings:${workspace.id}` },
          );
          return true;
        },
        updateAiSettings: async (_: unknown, args: { input: unknown }, ctx: RequestContext) => {
          const { viewer, workspace } = ctx.authorize('aiConfig:manage');
          const input = validate(updateInput, args.input);
          const next = await ctx.tx(async (trx) => {
            const current = await readAiSettings(trx, workspace.id);
            const merged: AiSettings = {
              enabled: input.enabled ?? current.enabled,
              features: { ...current.features, ...stripUndefined(input.features) },
              modes: { ...current.modes, ...stripUndefined(input.modes) },
              monthlyTokenCap: input.monthlyTokenCap === undefined ? current.monthlyTokenCap : input.monthlyTokenCap,
            };
            await writeAiSettings(trx, workspace.id, viewer.userId, merged);
            await recordAudit(trx, {
              workspaceId: workspace.id,
              actorUserId: viewer.userId,
              kind: 'WORKSPACE',
              subjectType: 'aiSettings',
              metadata: { old: current, new: merged },
            });
            return merged;
          });
          return view(ai, workspace.id, next);
        },
      },
    },
  };
}

function stripUndefined<T extends Record<string, unknown>>(
  o: T | undefined,
): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}
