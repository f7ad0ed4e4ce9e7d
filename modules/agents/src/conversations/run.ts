import {
  AppError,
  type AiService,
  type ChatMessage,
  type ChatTool,
  type RequestContext,
  type ToolCall,
} from '@fieldbook/core';
import { agentFor, type AgentRow } from '../agents/store.ts';
import { memberOf, type Member } from '../tools/access.ts';
import type { Tool } from '../tools/define.ts';
import { ASK_FOR_CONFIRMATION } from '../tools/messaging.ts';
import type { AgentToolbox } from '../tools/toolbox.ts';
import { changedSince, prepareAction } from './confirmation.ts';
import { conversationSources, withSources } from './sources.ts';
import {
  addMessage,
  conversationFor,
  messagesOf,
  type CallUsage,
  type ConversationRow,
  type Pending,
} from './store.ts';
import type { MessageRow, MessageTool } from './message-row.ts';
import { checkedStream, verifiedAnswer } from './quotes.ts';
import { withCallUsage } from './usage.ts';
import { messageView, type MessageView } from './views.ts';

/** Model calls one turn may make before the agent stops and says so (a loop of tool calls ends). */
export const MAX_STEPS = 8;
/** What the agent says when the person cancels: the turn ends there. */
export const CANCELLED = 'You cancelled, so I stopped there: nothing else from that step was done.';
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

function systemPrompt(agent: AgentRow, tools: readonly Tool[]): string {
  return [
    `You are “${agent.name}”, an AI agent in Fieldbook, a customer-research repository of projects, notes, insights, highlights, tags and channels of customer feedback.`,
    'Use the tools to find evidence before answering; they see exactly what the person you work for can read. Name the notes and insights you rely on by their titles.',
    tools.some((t) => t.access === 'write')
      ? 'Tools that change things or send anything out ask the person to confirm first; email goes only to members who can open what this conversation read.'
      : 'You can only read.',
    `Today is ${new Date().toISOString().slice(0, 10)}.`,
    // The agent's author wrote these; they shape answers but cannot widen what it reads or whom it sends to.
    agent.instructions.trim()
      ? `Your instructions (from whoever set up this agent):\n${agent.instructions.trim()}`
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** A conversation as the model reads it again: THINKING text is not replayed, its tool calls are. */
function history(agent: AgentRow, tools: readonly Tool[], rows: readonly MessageRow[]): ChatMessage[] {
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
  private tools: Tool[] = [];
  private answer: string | null = null;

  async load(): Promise<void> {
    this.agent = await this.member.tx((trx) => agentFor(trx, this.m, this.conversation.agent_id));
    const allowed = new Set([...this.agent.tools, ASK_FOR_CONFIRMATION]);
    // A viewer is never offered a write: the model does not see write tools, so no card asks them.
    const mayWrite = this.member.membership?.effectiveRole !== 'VIEWER';
    this.tools = this.deps.toolbox.tools().filter((t) => allowed.has(t.name) && (mayWrite || t.access === 'read'));
  }

  /** The projects this conversation has read from so far (see sources.ts). */
  private sources() {
    return this.member.tx(async (trx) =>
      conversationSources(trx, this.m.workspaceId, await messagesOf(trx, this.conversation.id)),
    );
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

  /**
   * Runs one tool call (confirmed already, when it asks) and stores its RESULT; a refused or failed
   * call is a RESULT saying why, for the model to read.
   */
  private async runCall(call: ToolCall, usage: CallUsage | undefined): Promise<void> {
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
    if (call.name === ASK_FOR_CONFIRMATION) return this.add('RESULT', 'The person confirmed.', base);
    try {
      // A note the tool writes records the tokens of the model call that asked for it; what it sends
      // out goes only to those who may open what the conversation read.
      const sources = await this.sources();
      const result = await withSources(sources, () =>
        withCallUsage(usage, () => this.deps.toolbox.runTool(this.member, call.name, input)),
      );
      await this.add('RESULT', result.text, { ...base, ...(result.items?.length ? { items: result.items } : {}) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await this.add('RESULT', `${call.name} failed: ${err.message}`, { ...base, error: true });
    }
  }

  /** Parses a call's arguments; null when they are not JSON (running it then says so). */
  private static inputOf(call: ToolCall): unknown {
    try {
      return call.arguments.trim() ? (JSON.parse(call.arguments) as unknown) : {};
    } catch {
      return null;
    }
  }

  /**
   * Works through tool calls in order; pauses (persisted) at the first that needs the person's
   * answer. One the person could not confirm to any effect (a write they may not make, mail no
   * recipient may read) is refused without asking, and the calls after it go on.
   */
  private async runCalls(
    calls: readonly ToolCall[],
    firstConfirmed: boolean,
    usage: CallUsage | undefined,
  ): Promise<'paused' | 'done'> {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const tool = this.tools.find((t) => t.name === call.name);
      const asks = call.name === ASK_FOR_CONFIRMATION || Boolean(tool?.needsConfirmation);
      const input = Turn.inputOf(call);
      if (tool && asks && input !== null && !(i === 0 && firstConfirmed)) {
        const prepared = await prepareAction(this.member, this.m, tool, input, await this.sources());
        if ('refused' in prepared) {
          await this.add('RESULT', `${call.name} was not run: ${prepared.refused}`, {
            callId: call.id,
            name: call.name,
            input,
            error: true,
          });
          continue;
        }
        const question =
          call.name === ASK_FOR_CONFIRMATION ? prepared.summary.action : `Allow ${call.name.replace(/_/g, ' ')}?`;
        const pending: Pending = {
          calls: calls.slice(i),
          question,
          toolName: call.name,
          input,
          summary: prepared.summary,
          ...(usage ? { usage } : {}),
          ...(prepared.drawnFrom ? { drawnFrom: prepared.drawnFrom } : {}),
        };
        await this.setStatus('AWAITING_CONFIRMATION', pending);
        this.sink.send('confirm', pending);
        return 'paused';
      }
      await this.runCall(call, usage);
    }
    return 'done';
  }

  /**
   * The person cancelled: the whole turn ends. The call they were asked about and every call after
   * it from the same reply are answered as not done (so the model reads why next time), and the
   * model is not asked again until the person writes.
   */
  private async cancel(calls: readonly ToolCall[]): Promise<void> {
    for (const call of calls)
      await this.add('RESULT', 'The person cancelled this step: it was not done. Do not retry it unasked.', {
        callId: call.id,
        name: call.name,
        input: Turn.inputOf(call) ?? call.arguments,
      });
    await this.add('ASSISTANT', CANCELLED);
    await this.setStatus('IDLE', null);
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
      // What the person sees while the model writes is checked as its answer is: no quotation shows before it is verified.
      const live = checkedStream(rows, (text) => this.sink.send('delta', { text }));
      const result = await this.deps.ai.chat(
        { workspaceId: this.m.workspaceId, userId: this.m.userId, feature: 'agents' },
        {
          messages: history(this.agent, this.tools, rows),
          tools: chatTools,
          ...(this.agent.model ? { model: this.agent.model } : {}),
        },
        { onDelta: (text) => live.push(text), signal: this.sink.signal },
      );
      live.end();
      const { thinking, answer } = splitThinking(result.text);
      if (result.toolCalls.length === 0) {
        if (thinking) await this.add('THINKING', thinking);
        // Every quotation in the answer is checked against what the tools read before it is stored or shown.
        const { content, dropped } = verifiedAnswer(answer, rows);
        await this.add(
          'ASSISTANT',
          content || 'I have nothing to add.',
          dropped ? { droppedQuotes: dropped } : undefined,
        );
        this.answer = content;
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
      if ((await this.runCalls(result.toolCalls, false, usage)) === 'paused') return;
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
    const stale = confirmed && pending.drawnFrom ? await changedSince(this.member, this.m, pending.drawnFrom) : null;
    if (!confirmed) await this.cancel(pending.calls);
    else if (stale) {
      const [first, ...rest] = pending.calls;
      await this.add('RESULT', `${first!.name} was not run: ${stale}`, {
        callId: first!.id,
        name: first!.name,
        input: pending.input,
        error: true,
      });
      // The calls after it are asked about again, as if the first had been refused before asking.
      if ((await this.runCalls(rest, false, pending.usage)) === 'done') await this.loop();
    } else if ((await this.runCalls(pending.calls, true, pending.usage)) === 'done') await this.loop();
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
