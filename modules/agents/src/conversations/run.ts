import {
  AppError,
  type AgentTool,
  type AiService,
  type ChatMessage,
  type ChatTool,
  type RequestContext,
  type ToolCall,
} from '@fieldbook/core';
import { agentFor, type AgentRow } from '../agents/store.ts';
import { memberOf, type Member } from '../tools/access.ts';
import { ASK_FOR_CONFIRMATION } from '../tools/messaging.ts';
import type { AgentToolbox } from '../tools/toolbox.ts';
import { describeAction } from './confirmation.ts';
import {
  addMessage,
  conversationFor,
  messagesOf,
  type CallUsage,
  type ConversationRow,
  type MessageRow,
  type MessageTool,
  type Pending,
} from './store.ts';
import { withCallUsage } from './usage.ts';
import { messageView, type MessageView } from './views.ts';

/** Model calls one turn may make before the agent stops and says so (a loop of tool calls ends). */
export const MAX_STEPS = 8;
/** A run whose process died leaves the conversation RUNNING; after this long it may start again. */
const STALE_RUN_MS = 5 * 60_000;

export interface RunDeps {
  ai: AiService;
  toolbox: AgentToolbox;
}

/** Where a run reports as it goes: stored messages, text as the model writes it, a question to confirm. */
export interface RunSink {
  send(event: 'message', data: MessageView): void;
  send(event: 'delta', data: { text: string }): void;
  send(event: 'confirm', data: Pending): void;
  readonly signal?: AbortSignal;
}

export const silentSink: RunSink = { send: () => undefined };

export interface RunOutcome {
  conversation: ConversationRow;
  /** The agent's last answer, if the turn ended with one. */
  answer: string | null;
}

function systemPrompt(agent: AgentRow, tools: readonly AgentTool[]): string {
  return [
    `You are “${agent.name}”, an AI agent in Fieldbook, a customer-research repository of projects, notes, insights, highlights, tags and channels of customer feedback.`,
    'Use the tools to find evidence before answering; they see exactly what the person you work for can read. Name the notes and insights you rely on by their titles.',
    tools.some((t) => t.access === 'write')
      ? 'Before changing anything, make sure the person wants it: tools that change things ask them to confirm.'
      : 'You can only read.',
    `Today is ${new Date().toISOString().slice(0, 10)}.`,
    agent.instructions.trim() ? `Your instructions:\n${agent.instructions.trim()}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** A conversation as the model reads it again: THINKING text is not replayed, its tool calls are. */
function history(agent: AgentRow, tools: readonly AgentTool[], rows: readonly MessageRow[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: systemPrompt(agent, tools) }];
  for (const r of rows) {
    if (r.type === 'USER') out.push({ role: 'user', content: r.content });
    else if (r.type === 'RESULT' && r.tool?.callId)
      out.push({ role: 'tool', toolCallId: r.tool.callId, content: r.content });
    else if (r.type === 'ASSISTANT' || (r.type === 'THINKING' && r.tool?.calls?.length)) {
      out.push({
        role: 'assistant',
        content: r.type === 'ASSISTANT' ? r.content : '',
        ...(r.tool?.calls?.length ? { toolCalls: r.tool.calls } : {}),
      });
    }
  }
  return out;
}

/** Splits a model's `<think>…</think>` reasoning from its answer (reasoning models write both). */
export function splitThinking(text: string): { thinking: string; answer: string } {
  const m = /^\s*<think>([\s\S]*?)<\/think>\s*/.exec(text);
  return m ? { thinking: m[1]!.trim(), answer: text.slice(m[0].length).trim() } : { thinking: '', answer: text.trim() };
}

class Turn {
  constructor(
    private readonly deps: RunDeps,
    private readonly member: RequestContext,
    private readonly m: Member,
    private readonly sink: RunSink,
    private conversation: ConversationRow,
  ) {}

  private agent!: AgentRow;
  private tools: AgentTool[] = [];
  private answer: string | null = null;

  async load(): Promise<void> {
    this.agent = await this.member.tx((trx) => agentFor(trx, this.m, this.conversation.agent_id));
    const allowed = new Set([...this.agent.tools, ASK_FOR_CONFIRMATION]);
    this.tools = this.deps.toolbox.tools().filter((t) => allowed.has(t.name));
  }

  private async add(type: MessageRow['type'], content: string, tool?: MessageTool): Promise<void> {
    const row = await this.member.tx((trx) => addMessage(trx, this.m, this.conversation.id, { type, content, tool }));
    this.sink.send('message', messageView(row));
  }

  private async setStatus(status: ConversationRow['status'], pending: Pending | null): Promise<void> {
    const [row] = (await this.member.tx((trx) =>
      trx('agent_conversations')
        .where({ id: this.conversation.id })
        .update({ status, pending: pending ? JSON.stringify(pending) : null, updated_at: trx.fn.now() })
        .returning('*'),
    )) as ConversationRow[];
    this.conversation = row!;
  }

  /** Runs one tool call and stores its RESULT; a refused or failed call is a RESULT saying why, for the model to read. */
  private async runCall(call: ToolCall, confirmed: boolean | null, usage: CallUsage | undefined): Promise<void> {
    const tool = this.tools.find((t) => t.name === call.name);
    let input: unknown = {};
    try {
      input = call.arguments.trim() ? (JSON.parse(call.arguments) as unknown) : {};
    } catch {
      await this.add('RESULT', `The arguments of ${call.name} were not valid JSON.`, {
        callId: call.id,
        name: call.name,
        error: true,
      });
      return;
    }
    const base = { callId: call.id, name: call.name, input };
    if (!tool) return this.add('RESULT', `This agent has no tool named ${call.name}.`, { ...base, error: true });
    if (confirmed === false)
      return this.add('RESULT', 'The person said no. Do not do this; ask what they want instead.', base);
    if (call.name === ASK_FOR_CONFIRMATION) return this.add('RESULT', 'The person confirmed.', base);
    try {
      // A note the tool writes records the tokens of the model call that asked for it.
      const result = await withCallUsage(usage, () => this.deps.toolbox.runTool(this.member, call.name, input));
      await this.add('RESULT', result.text, { ...base, ...(result.items?.length ? { items: result.items } : {}) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await this.add('RESULT', `${call.name} failed: ${err.message}`, { ...base, error: true });
    }
  }

  /** Works through tool calls in order; pauses (persisted) at the first that needs the person's answer. */
  private async runCalls(
    calls: readonly ToolCall[],
    firstConfirmed: boolean | null,
    usage: CallUsage | undefined,
  ): Promise<'paused' | 'done'> {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const tool = this.tools.find((t) => t.name === call.name);
      const asks = call.name === ASK_FOR_CONFIRMATION || Boolean(tool?.needsConfirmation);
      if (asks && !(i === 0 && firstConfirmed !== null)) {
        let input: unknown = {};
        try {
          input = JSON.parse(call.arguments || '{}') as unknown;
        } catch {
          // Shown as it came; running it answers that the arguments were not JSON.
        }
        const question =
          call.name === ASK_FOR_CONFIRMATION &&
          input &&
          typeof input === 'object' &&
          typeof (input as { message?: unknown }).message === 'string'
            ? (input as { message: string }).message
            : `Allow ${call.name.replace(/_/g, ' ')}?`;
        const summary = await describeAction(this.member, this.m, call.name, input);
        const pending: Pending = {
          calls: calls.slice(i),
          question,
          toolName: call.name,
          input,
          summary,
          ...(usage ? { usage } : {}),
        };
        await this.setStatus('AWAITING_CONFIRMATION', pending);
        this.sink.send('confirm', pending);
        return 'paused';
      }
      await this.runCall(call, i === 0 ? firstConfirmed : null, usage);
    }
    return 'done';
  }

  /** Model calls until it answers without tools, pauses for the person, or reaches MAX_STEPS. */
  private async loop(): Promise<void> {
    const chatTools: ChatTool[] = this.tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.inputSchema as unknown as Record<string, unknown>,
    }));
    for (let step = 0; step < MAX_STEPS; step++) {
      const rows = await this.member.tx((trx) => messagesOf(trx, this.conversation.id));
      const result = await this.deps.ai.chat(
        { workspaceId: this.m.workspaceId, userId: this.m.userId, feature: 'agents' },
        {
          messages: history(this.agent, this.tools, rows),
          tools: chatTools,
          ...(this.agent.model ? { model: this.agent.model } : {}),
        },
        { onDelta: (text) => this.sink.send('delta', { text }), signal: this.sink.signal },
      );
      const { thinking, answer } = splitThinking(result.text);
      if (result.toolCalls.length === 0) {
        if (thinking) await this.add('THINKING', thinking);
        await this.add('ASSISTANT', answer || 'I have nothing to add.');
        this.answer = answer;
        await this.setStatus('IDLE', null);
        return;
      }
      // Text written before tool calls is the agent thinking aloud: kept, shown collapsed.
      await this.add('THINKING', [thinking, answer].filter(Boolean).join('\n\n'), { calls: result.toolCalls });
      const usage: CallUsage = {
        model: result.model,
        endpointHost: result.endpointHost,
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
      };
      if ((await this.runCalls(result.toolCalls, null, usage)) === 'paused') return;
    }
    await this.add(
      'ASSISTANT',
      `I stopped after ${MAX_STEPS} steps without a final answer. Ask me to go on, or narrow the question.`,
    );
    await this.setStatus('IDLE', null);
  }

  async run(): Promise<RunOutcome> {
    await this.loop();
    return { conversation: this.conversation, answer: this.answer };
  }

  async resume(confirmed: boolean, pending: Pending): Promise<RunOutcome> {
    if ((await this.runCalls(pending.calls, confirmed, pending.usage)) === 'done') await this.loop();
    return { conversation: this.conversation, answer: this.answer };
  }
}

/** Claims the conversation for a run: only one at a time, and only from the state expected. */
async function claim(
  member: RequestContext,
  m: Member,
  id: string,
  from: ConversationRow['status'],
): Promise<ConversationRow> {
  return member.tx(async (trx) => {
    const current = await conversationFor(trx, m, id);
    const stale = current.status === 'RUNNING' && Date.now() - current.updated_at.getTime() > STALE_RUN_MS;
    if (current.status !== from && !(stale && from === 'IDLE')) {
      if (current.status === 'AWAITING_CONFIRMATION')
        throw new AppError('INVALID_OPERATION', 'The agent is waiting for you to confirm or cancel first.');
      if (current.status === 'RUNNING')
        throw new AppError('INVALID_OPERATION', 'The agent is still answering; wait for it to finish.');
      throw new AppError('INVALID_OPERATION', 'The agent is not waiting for a confirmation.');
    }
    const [row] = (await trx('agent_conversations')
      .where({ id, status: current.status })
      .update({ status: 'RUNNING', updated_at: trx.fn.now() })
      .returning('*')) as ConversationRow[];
    if (!row) throw new AppError('INVALID_OPERATION', 'The agent is still answering; wait for it to finish.');
    return { ...row, pending: current.pending };
  });
}

/** On a failure (the model unreachable, the page closed), the conversation is free again. */
async function release(member: RequestContext, id: string): Promise<void> {
  await member.tx((trx) =>
    trx('agent_conversations')
      .where({ id, status: 'RUNNING' })
      .update({ status: 'IDLE', pending: null, updated_at: trx.fn.now() }),
  );
}

async function guarded(member: RequestContext, id: string, fn: () => Promise<RunOutcome>): Promise<RunOutcome> {
  try {
    return await fn();
  } catch (err) {
    await release(member, id);
    throw err;
  }
}

/** The person writes; the agent answers, using its tools as them, until it answers or asks. */
export async function sendMessage(
  deps: RunDeps,
  member: RequestContext,
  conversationId: string,
  text: string,
  sink: RunSink = silentSink,
): Promise<RunOutcome> {
  const m = memberOf(member);
  const conversation = await claim(member, m, conversationId, 'IDLE');
  return guarded(member, conversationId, async () => {
    const turn = new Turn(deps, member, m, sink, conversation);
    await turn.load();
    const row = await member.tx((trx) => addMessage(trx, m, conversationId, { type: 'USER', content: text }));
    sink.send('message', messageView(row));
    return turn.run();
  });
}

/** The person confirms or cancels what the agent paused on; the turn goes on from there. */
export async function answerConfirmation(
  deps: RunDeps,
  member: RequestContext,
  conversationId: string,
  confirmed: boolean,
  sink: RunSink = silentSink,
): Promise<RunOutcome> {
  const m = memberOf(member);
  const conversation = await claim(member, m, conversationId, 'AWAITING_CONFIRMATION');
  const pending = conversation.pending;
  return guarded(member, conversationId, async () => {
    if (!pending) throw new AppError('INVALID_OPERATION', 'The agent is not waiting for a confirmation.');
    const turn = new Turn(deps, member, m, sink, { ...conversation, pending: null });
    await turn.load();
    return turn.resume(confirmed, pending);
  });
}
