import type { AiService, ModuleGraphql } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { acceptSuggestion, pendingSuggestions, rejectSuggestion, suggestHighlights } from './suggestions.ts';

export function suggestionsPart(ai: AiService, research: ResearchServices): ModuleGraphql {
  return {
    typeDefs: /* GraphQL */ `
      extend type Query {
        "A note's suggested highlights waiting for a decision, in the note's order."
        highlightSuggestions(noteId: ID!): [HighlightSuggestion!]!
      }
      extend type Mutation {
        "Suggests passages of a note to highlight (AI, or the note's key sentences with no model); replaces its pending suggestions. Viewers cannot."
        suggestHighlights(noteId: ID!): HighlightSuggestions!
        "Makes a suggestion a highlight of its note."
        acceptHighlightSuggestion(id: ID!): HighlightSuggestion!
        "Rejects a suggestion; the same passage is not suggested again."
        rejectHighlightSuggestion(id: ID!): HighlightSuggestion!
      }
      enum HighlightSuggestionStatus {
        PENDING
        ACCEPTED
        REJECTED
      }
      type HighlightSuggestion {
        id: ID!
        noteId: ID!
        startOffset: Int!
        endOffset: Int!
        "The passage, word for word from the note."
        text: String!
        "Why the model thought it matters; null for key sentences."
        reason: String
        status: HighlightSuggestionStatus!
        "The highlight it became, once accepted."
        highlightId: ID
        "What suggested it: 'Suggested by AI (model)' or a key sentence with no model."
        label: String!
        createdAt: DateTime!
      }
      type HighlightSuggestions {
        suggestions: [HighlightSuggestion!]!
        "Passages the model gave that are not in the note word for word: dropped, never shown."
        dropped: Int!
        "True when no AI model is configured and the note's key sentences were picked."
        local: Boolean!
      }
    `,
    resolvers: {
      Query: {
        highlightSuggestions: (_: unknown, args: unknown, ctx) => pendingSuggestions(ctx, args),
      },
      Mutation: {
        suggestHighlights: (_: unknown, args: unknown, ctx) => suggestHighlights(ctx, ai, args),
        acceptHighlightSuggestion: (_: unknown, args: unknown, ctx) => acceptSuggestion(ctx, research, args),
        rejectHighlightSuggestion: (_: unknown, args: unknown, ctx) => rejectSuggestion(ctx, args),
      },
    },
  };
}
