import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit, validate, type ModuleGraphql, type RequestContext } from '@fieldbook/core';

/** Whether MCP clients may run tools that change things; read tools are always served. */
export interface McpSettings {
  allowWrites: boolean;
}

/** The workspace's MCP settings; writes stay off until an admin allows them. `trx` is scoped to it. */
export async function readMcpSettings(trx: Knex | Knex.Transaction, workspaceId: string): Promise<McpSettings> {
  const row = (await trx('mcp_settings').where({ workspace_id: workspaceId }).first('allow_writes')) as
    | { allow_writes: boolean }
    | undefined;
  return { allowWrites: row?.allow_writes ?? false };
}

const updateInput = z.object({ allowWrites: z.boolean({ message: 'allowWrites must be true or false.' }) }).strict();

export const settingsTypeDefs = /* GraphQL */ `
  extend type Query {
    "How MCP clients (Claude, ChatGPT, IDEs) reach this workspace with a personal API token, and whether they may make changes."
    mcpSettings: McpSettings!
  }
  extend type Mutation {
    "Workspace admins allow or forbid MCP clients to run tools that make changes; read tools are always available."
    updateMcpSettings(input: UpdateMcpSettingsInput!): McpSettings!
  }
  type McpSettings {
    "Off by default: MCP clients see and run read tools only."
    allowWrites: Boolean!
    "The streamable HTTP endpoint to give an MCP client."
    url: String!
  }
  input UpdateMcpSettingsInput {
    allowWrites: Boolean!
  }
`;

export function settingsPart(endpoint: () => string): ModuleGraphql {
  return {
    typeDefs: settingsTypeDefs,
    resolvers: {
      Query: {
        mcpSettings: async (_: unknown, __: unknown, ctx: RequestContext) => {
          const { workspace } = ctx.authorize('projects:read');
          const settings = await ctx.tx((trx) => readMcpSettings(trx, workspace.id));
          return { ...settings, url: endpoint() };
        },
      },
      Mutation: {
        updateMcpSettings: async (_: unknown, args: { input: unknown }, ctx: RequestContext) => {
          const { viewer, workspace } = ctx.authorize('aiConfig:manage');
          const input = validate(updateInput, args.input);
          const next = await ctx.tx(async (trx) => {
            const current = await readMcpSettings(trx, workspace.id);
            await trx('mcp_settings')
              .insert({
                workspace_id: workspace.id,
                allow_writes: input.allowWrites,
                updated_by: viewer.userId,
                updated_at: trx.fn.now(),
              })
              .onConflict('workspace_id')
              .merge();
            await recordAudit(trx, {
              workspaceId: workspace.id,
              actorUserId: viewer.userId,
              kind: 'WORKSPACE',
              subjectType: 'mcpSettings',
              metadata: { old: current, new: input },
            });
            return { allowWrites: input.allowWrites };
          });
          return { ...next, url: endpoint() };
        },
      },
    },
  };
}
