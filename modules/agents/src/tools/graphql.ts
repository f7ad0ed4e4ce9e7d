import type { ModuleGraphql, RequestContext } from '@fieldbook/core';
import type { AgentToolbox } from './toolbox.ts';

export const toolsTypeDefs = /* GraphQL */ `
  extend type Query {
    "Every tool an agent can be given: agents' own, the channels module's, and installed plugins'."
    agentTools: [AgentToolInfo!]!
  }
  extend type Mutation {
    "Runs one agent tool as the caller, checked like any request of theirs (tools that ask for confirmation run at once here: calling this is the confirmation)."
    runAgentTool(name: String!, input: JSON): AgentToolResult!
  }
  type AgentToolInfo {
    name: String!
    description: String!
    "read or write"
    access: String!
    needsConfirmation: Boolean!
    "The JSON Schema of its input."
    inputSchema: JSON!
  }
  type AgentToolItem {
    type: String!
    id: ID!
    title: String
    url: String
  }
  type AgentToolResult {
    text: String!
    items: [AgentToolItem!]!
    data: JSON
  }
`;

export function toolsPart(box: AgentToolbox): ModuleGraphql {
  return {
    typeDefs: toolsTypeDefs,
    resolvers: {
      Query: {
        agentTools: (_: unknown, __: unknown, ctx: RequestContext) => {
          ctx.authorize('projects:read');
          return box.tools().map((t) => ({ ...t, needsConfirmation: Boolean(t.needsConfirmation) }));
        },
      },
      Mutation: {
        runAgentTool: async (_: unknown, args: { name: string; input?: unknown }, ctx: RequestContext) => {
          const result = await box.runTool(ctx, args.name, args.input ?? {});
          return { text: result.text, items: result.items ?? [], data: result.data ?? null };
        },
      },
    },
  };
}
