import type { AiService, ModuleGraphql } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { acceptStep, noteStepRuns, rejectStep, undoStep } from './decisions.ts';

export { scheduleSteps, stepsJobs, runNoteSteps, STEPS_QUEUE, type StepsDeps } from './run.ts';

export function stepsPart(ai: AiService, research: ResearchServices): ModuleGraphql {
  return {
    typeDefs: /* GraphQL */ `
      extend type Query {
        "What the workspace's AI steps last did with a note's content: one run a step, in the order they run."
        aiStepRuns(noteId: ID!): [AiStepRun!]!
      }
      extend type Mutation {
        "Does what a step in Suggest mode offered (a summary, highlights, tags, a redaction or a draft insight). Viewers cannot."
        acceptAiStep(id: ID!): AiStepRun!
        "Declines what a step in Suggest mode offered. Viewers cannot."
        rejectAiStep(id: ID!): AiStepRun!
        "Takes back what a step did, or what was accepted. Viewers cannot."
        undoAiStep(id: ID!): AiStepRun!
      }
      enum AiStep {
        summarize
        highlights
        tags
        redact
        insights
      }
      enum AiStepStatus {
        RUNNING
        DONE
        PENDING
        ACCEPTED
        REJECTED
        UNDONE
        SKIPPED
        FAILED
      }
      type AiStepRun {
        id: ID!
        step: AiStep!
        "The mode it ran in: On or Suggest."
        mode: AiMode!
        status: AiStepStatus!
        "What it did, in a sentence."
        detail: String!
        "Why it was skipped or failed."
        reason: String
        model: String
        "'Written by AI (model)', or done locally without a model; null when nothing was made."
        label: String
        createdAt: DateTime!
        decidedAt: DateTime
        canUndo: Boolean!
        canDecide: Boolean!
        "What a step waiting for a decision offers, one item a line."
        preview: [String!]!
      }
    `,
    resolvers: {
      Query: {
        aiStepRuns: (_: unknown, args: unknown, ctx) => noteStepRuns(ctx, args),
      },
      Mutation: {
        acceptAiStep: (_: unknown, args: unknown, ctx) => acceptStep(ctx, { ai, research }, args),
        rejectAiStep: (_: unknown, args: unknown, ctx) => rejectStep(ctx, args),
        undoAiStep: (_: unknown, args: unknown, ctx) => undoStep(ctx, args),
      },
    },
  };
}
