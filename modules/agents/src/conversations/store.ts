import type { ActionSummary, NoteVersion } from './confirmation.ts';
import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext, type ToolCall } from '@fieldbook/core';
import { agentFor } from '../agents/store.ts';
import { memberOf, type Member } from '../tools/access.ts';
import type { MessageRow, MessageTool, MessageType } from './message-row.ts';

export const RATINGS = ['Good', 'Bad'] as const;
export const CONVERSATION_TITLE_MAX = 500;
export const MESSAGE_MAX = 20_000;

/** The tool calls a conversation paused on: the first waits for the person, the rest follow. */
export interface Pending {
  calls: ToolCall[];
  /** What the person is asked. */
  question: string;
  toolName: string;
  input: unknown;
  /** The action in words, for the person deciding (absent on conversations paused before it existed). */
  summary?: ActionSummary;
  /** The model call that asked for these calls: what a note it writes records as its tokens. */
  usage?: CallUsage;
  /** The note's version an edit's card showed: confirming does nothing if it changed since. */
  drawnFrom?: NoteVersion;
}

/** Model, endpoint and tokens of the model call that made a tool call. */
export interface CallUsage {
  model: string;
  endpointHost: string;
  promptTokens: number;
  completionTokens: number;
}

export type ConversationStatus = 'IDLE' | 'RUNNING' | 'AWAITING_CONFIRMATION';
export interface ConversationRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  user_id: string;
  title: string;
  status: ConversationStatus;
  pending: Pending | null;
  created_at: Date;
  updated_at: Date;
}

export const titleSchema = z
  .string({ error: 'title must be text.' })
  .trim()
  .min(1, 'title: a conversation needs a title.')
  .max(CONVERSATION_TITLE_MAX, `title: a conversation title can have at most ${CONVERSATION_TITLE_MAX} characters.`);
export const messageSchema = z
  .string({ error: 'text must be text.' })
  .trim()
  .min(1, 'text: write a message.')
  .max(MESSAGE_MAX, `text: a message can have at most ${MESSAGE_MAX.toLocaleString('en-US')} characters.`);
const uuid = (field: string, what: string) => z.uuid({ error: `${field} must be the id of ${what}.` });

/** A conversation is its person's own: anyone else gets NOT_FOUND, as for items they cannot read. */
export async function conversationFor(trx: Knex.Transaction, m: Member, id: string): Promise<ConversationRow> {
  const row = (await trx('agent_conversations')
    .where({ id, workspace_id: m.workspaceId, user_id: m.userId })
    .first()) as ConversationRow | undefined;
  if (!row) throw notFound('That conversation');
  return row;
}

export async function messagesOf(trx: Knex.Transaction, conversationId: string): Promise<MessageRow[]> {
  return (await trx('agent_messages').where({ conversation_id: conversationId }).orderBy('seq')) as MessageRow[];
}

export async function addMessage(
  trx: Knex.Transaction,
  m: Member,
  conversationId: string,
  msg: { type: MessageType; content: string; tool?: MessageTool },
): Promise<MessageRow> {
  const itemIds = [...new Set((msg.tool?.items ?? []).map((i) => i.id).filter((id) => /^[0-9a-f-]{36}$/i.test(id)))];
  const [row] = (await trx('agent_messages')
    .insert({
      workspace_id: m.workspaceId,
      conversation_id: conversationId,
      type: msg.type,
      content: msg.content,
      tool: msg.tool ? JSON.stringify(msg.tool) : null,
      item_ids: itemIds,
    })
    .returning('*')) as MessageRow[];
  await trx('agent_conversations').where({ id: conversationId }).update({ updated_at: trx.fn.now() });
  return row!;
}

export async function listConversations(ctx: RequestContext, agentId: unknown): Promise<ConversationRow[]> {
  const m = memberOf(ctx);
  const id = agentId === undefined || agentId === null ? null : validate(uuid('agentId', 'an agent'), agentId);
  return ctx.tx(async (trx) => {
    const q = trx('agent_conversations')
      .where({ workspace_id: m.workspaceId, user_id: m.userId })
      .orderBy('updated_at', 'desc')
      .limit(200);
    if (id) q.where({ agent_id: id });
    return (await q) as ConversationRow[];
  });
}

export async function getConversation(ctx: RequestContext, id: unknown): Promise<ConversationRow> {
  const m = memberOf(ctx);
  const conversationId = validate(uuid('id', 'a conversation'), id);
  return ctx.tx((trx) => conversationFor(trx, m, conversationId));
}

export async function startConversation(ctx: RequestContext, input: unknown): Promise<ConversationRow> {
  const m = memberOf(ctx);
  const v = validate(z.object({ agentId: uuid('agentId', 'an agent'), title: titleSchema.optional() }), input);
  return ctx.tx(async (trx) => {
    const agent = await agentFor(trx, m, v.agentId);
    const [row] = (await trx('agent_conversations')
      .insert({
        workspace_id: m.workspaceId,
        agent_id: agent.id,
        user_id: m.userId,
        title: v.title ?? `Conversation with ${agent.name}`.slice(0, CONVERSATION_TITLE_MAX),
      })
      .returning('*')) as ConversationRow[];
    return row!;
  });
}

export async function renameConversation(ctx: RequestContext, id: unknown, title: unknown): Promise<ConversationRow> {
  const m = memberOf(ctx);
  const v = validate(z.object({ id: uuid('id', 'a conversation'), title: titleSchema }), { id, title });
  return ctx.tx(async (trx) => {
    await conversationFor(trx, m, v.id);
    const [row] = (await trx('agent_conversations')
      .where({ id: v.id })
      .update({ title: v.title, updated_at: trx.fn.now() })
      .returning('*')) as ConversationRow[];
    return row!;
  });
}

export async function deleteConversation(ctx: RequestContext, id: unknown): Promise<boolean> {
  const m = memberOf(ctx);
  const conversationId = validate(uuid('id', 'a conversation'), id);
  return ctx.tx(async (trx) => {
    await conversationFor(trx, m, conversationId);
    await trx('agent_conversations').where({ id: conversationId }).delete();
    return true;
  });
}

/** Good or Bad on one of the agent's answers (null takes the rating back). */
export async function rateMessage(ctx: RequestContext, messageId: unknown, rating: unknown): Promise<MessageRow> {
  const m = memberOf(ctx);
  const v = validate(
    z.object({
      messageId: uuid('messageId', 'a message'),
      rating: z.enum(RATINGS, { error: 'rating must be Good or Bad.' }).nullable(),
    }),
    { messageId, rating },
  );
  return ctx.tx(async (trx) => {
    const msg = (await trx('agent_messages').where({ id: v.messageId, workspace_id: m.workspaceId }).first()) as
      | MessageRow
      | undefined;
    if (!msg) throw notFound('That message');
    await conversationFor(trx, m, msg.conversation_id).catch(() => {
      throw notFound('That message');
    });
    if (msg.type !== 'ASSISTANT') throw badInput('messageId', 'messageId: only the agent’s answers can be rated.');
    const [row] = (await trx('agent_messages')
      .where({ id: v.messageId })
      .update({ rating: v.rating })
      .returning('*')) as MessageRow[];
    return row!;
  });
}
