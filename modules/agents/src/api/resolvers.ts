import { z } from 'zod';
import { validate, type ModuleGraphql, type RequestContext } from '@fieldbook/core';
import {
  createAgent,
  deleteAgent,
  getAgent,
  listAgents,
  mayEdit,
  updateAgent,
  type AgentRow,
} from '../agents/store.ts';
import { answerConfirmation, sendMessage, type RunDeps } from '../conversations/run.ts';
import { searchConversations } from '../conversations/search.ts';
import {
  deleteConversation,
  getConversation,
  listConversations,
  messageSchema,
  messagesOf,
  rateMessage,
  renameConversation,
  startConversation,
  type ConversationRow,
} from '../conversations/store.ts';
import { conversationView, messageView } from '../conversations/views.ts';
import { memberOf } from '../tools/access.ts';
import { agentsTypeDefs } from './schema.ts';

const conversationId = z.uuid({ error: 'conversationId must be the id of a conversation.' });

export function agentsPart(deps: RunDeps): ModuleGraphql {
  const toolNames = () => deps.toolbox.tools().map((t) => t.name);
  const agentView = (ctx: RequestContext) => (a: AgentRow) => ({
    id: a.id,
    name: a.name,
    instructions: a.instructions,
    model: a.model,
    tools: a.tools,
    createdBy: a.created_by,
    viewerCanEdit: mayEdit(memberOf(ctx), a),
    createdAt: a.created_at,
    updatedAt: a.updated_at,
  });
  const conv = (c: ConversationRow) => conversationView(c);
  return {
    typeDefs: agentsTypeDefs,
    resolvers: {
      Query: {
        agents: async (_: unknown, __: unknown, ctx: RequestContext) => (await listAgents(ctx)).map(agentView(ctx)),
        agent: async (_: unknown, args: { id: string }, ctx: RequestContext) =>
          agentView(ctx)(await getAgent(ctx, args.id)),
        agentConversations: async (_: unknown, args: { agentId?: string | null }, ctx: RequestContext) =>
          (await listConversations(ctx, args.agentId)).map(conv),
        agentConversation: async (_: unknown, args: { id: string }, ctx: RequestContext) =>
          conv(await getConversation(ctx, args.id)),
        searchConversations: async (_: unknown, args: { input: unknown }, ctx: RequestContext) =>
          (await searchConversations(ctx, args.input)).map(conv),
      },
      Mutation: {
        createAgent: async (_: unknown, args: { input: unknown }, ctx: RequestContext) =>
          agentView(ctx)(await createAgent(ctx, args.input, toolNames())),
        updateAgent: async (_: unknown, args: { id: string; input: unknown }, ctx: RequestContext) =>
          agentView(ctx)(await updateAgent(ctx, args.id, args.input, toolNames())),
        deleteAgent: (_: unknown, args: { id: string }, ctx: RequestContext) => deleteAgent(ctx, args.id),
        startConversation: async (_: unknown, args: { input: unknown }, ctx: RequestContext) =>
          conv(await startConversation(ctx, args.input)),
        renameConversation: async (_: unknown, args: { id: string; title: unknown }, ctx: RequestContext) =>
          conv(await renameConversation(ctx, args.id, args.title)),
        deleteConversation: (_: unknown, args: { id: string }, ctx: RequestContext) => deleteConversation(ctx, args.id),
        sendAgentMessage: async (_: unknown, args: { conversationId: string; text: string }, ctx: RequestContext) => {
          const v = validate(z.object({ conversationId, text: messageSchema }), args);
          return conv((await sendMessage(deps, ctx, v.conversationId, v.text)).conversation);
        },
        answerAgentConfirmation: async (
          _: unknown,
          args: { conversationId: string; confirmed: boolean },
          ctx: RequestContext,
        ) => {
          const v = validate(z.object({ conversationId, confirmed: z.boolean() }), args);
          return conv((await answerConfirmation(deps, ctx, v.conversationId, v.confirmed)).conversation);
        },
        rateMessage: async (_: unknown, args: { messageId: string; rating: unknown }, ctx: RequestContext) =>
          messageView(await rateMessage(ctx, args.messageId, args.rating ?? null)),
      },
      AgentConversation: {
        agent: async (c: { agentId: string }, _: unknown, ctx: RequestContext) => {
          try {
            return agentView(ctx)(await getAgent(ctx, c.agentId));
          } catch {
            return null;
          }
        },
        messages: async (c: { id: string }, _: unknown, ctx: RequestContext) =>
          (await ctx.tx((trx) => messagesOf(trx, c.id))).map(messageView),
      },
    },
  };
}
