import type OpenAI from 'openai';
import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { withTenant } from '../db/tenancy.ts';
import { AppError } from '../errors/app-error.ts';
import type { Logger } from '../logger.ts';
import { readAiSettings, type AiFeature, type AiSettings } from './settings.ts';
import { addUsage, readUsage, type MonthlyUsage } from './usage.ts';

/**
 * One message of a chat. An assistant message may carry the tool calls the model made; each is
 * answered by a `tool` message naming its call, as agents replay a conversation.
 */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string };

/** A function the model may call (agents); `parameters` is a JSON Schema object. */
export interface ChatTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text); the caller validates them. */
  arguments: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** A model other than the configured chat model (an agent's own), on the same endpoint. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  tools?: ChatTool[];
}

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  model: string;
  endpointHost: string;
  promptTokens: number;
  completionTokens: number;
}

/** Who a call is for: its tokens count against this workspace, and its feature must be on there. */
/** The highlights step of 002 §3 set to Off. */
export const HIGHLIGHTS_OFF =
  'AI highlights are turned off in this workspace. A workspace admin can set them to Suggest or On in Settings → AI.';

export interface AiCallScope {
  workspaceId: string;
  userId: string | null;
  /** A feature the workspace can switch off, or work of agents and automation (gated by `enabled` only). */
  feature: AiFeature | 'agents' | 'automation' | 'highlights';
}

export interface AiModelInfo {
  chatModel: string;
  embeddingModel: string | null;
  endpointHost: string;
}

/**
 * The one AI provider of Fieldbook, on the module context: any OpenAI-compatible endpoint, with
 * timeouts, retries on 429 and 5xx (Retry-After honoured), streaming, tokens counted per
 * workspace and month, and the workspace's monthly cap enforced before every call.
 */
export interface AiService {
  /** The configured endpoint; null when none is (local features only). */
  readonly model: AiModelInfo | null;
  settings(workspaceId: string): Promise<AiSettings>;
  /** Throws FORBIDDEN when AI or the feature is off in the workspace, TOO_MANY_REQUESTS over its cap. */
  ensureAllowed(scope: AiCallScope): Promise<AiSettings>;
  /** One chat completion; with `onDelta` it streams and each piece of text is passed on as it comes. */
  chat(
    scope: AiCallScope,
    request: ChatRequest,
    opts?: { onDelta?: (text: string) => void; signal?: AbortSignal },
  ): Promise<ChatResult>;
  /** Embeddings of `texts`, in order; throws when no embedding model is configured. */
  embed(scope: AiCallScope, texts: readonly string[]): Promise<{ vectors: number[][]; model: string; tokens: number }>;
  usage(workspaceId: string): Promise<MonthlyUsage & { cap: number | null }>;
}

/**
 * The OpenAI client library, loaded with the first AI call rather than at start: it is a large
 * package that a start (and an installation without AI) does not need.
 */
let openai: typeof OpenAI | null = null;
const loadOpenAI = async (): Promise<typeof OpenAI> => (openai ??= (await import('openai')).default);

/** Errors of the client library; none can exist before it was loaded. */
const isApiError = (err: unknown): err is InstanceType<typeof OpenAI.APIError> =>
  openai !== null && err instanceof openai.APIError;

/** Status codes worth another try: rate limits and server-side failures. */
const RETRYABLE = (status: number | undefined) =>
  status === 429 || status === 408 || (status !== undefined && status >= 500);

/** Roughly four characters a token, when a server does not report usage (some local ones). */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function retryAfterMs(err: unknown): number | null {
  if (!isApiError(err) || !err.headers) return null;
  const headers = err.headers as Headers;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

function isRetryable(err: unknown): boolean {
  if (openai && (err instanceof openai.APIConnectionTimeoutError || err instanceof openai.APIConnectionError))
    return true;
  return isApiError(err) && RETRYABLE(err.status);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    });
  });

/** What people see when the model cannot be reached: never the provider's raw error. */
function unavailable(err: unknown): AppError {
  const status = isApiError(err) ? err.status : undefined;
  const detail = status ? ` (it answered ${status})` : '';
  return new AppError('INTERNAL_SERVER_ERROR', `The AI model could not answer${detail}; try again in a minute.`, {
    cause: err,
  });
}

/** A message as OpenAI-compatible servers take it. */
function toWire(m: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId };
  if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

export function createAiService(deps: { config: Config; db: Knex; logger: Logger }): AiService {
  const { config, db, logger } = deps;
  const ai = config.ai;
  let client: Promise<OpenAI> | null = null;
  const endpointHost = ai.baseUrl ? new URL(ai.baseUrl).host : '';
  const model: AiModelInfo | null = ai.baseUrl
    ? { chatModel: ai.chatModel, embeddingModel: ai.embeddingModel ?? null, endpointHost }
    : null;

  const scoped = <T>(workspaceId: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(db, { workspaceId }, fn);

  async function ensureAllowed(scope: AiCallScope): Promise<AiSettings> {
    const [settings, used] = await scoped(
      scope.workspaceId,
      async (trx) => [await readAiSettings(trx, scope.workspaceId), await readUsage(trx, scope.workspaceId)] as const,
    );
    if (!settings.enabled)
      throw new AppError(
        'FORBIDDEN',
        'AI is turned off in this workspace. A workspace admin can turn it on in Settings → AI.',
      );
    if (
      (scope.feature === 'summaries' || scope.feature === 'ask' || scope.feature === 'translation') &&
      !settings.features[scope.feature]
    ) {
      throw new AppError(
        'FORBIDDEN',
        `AI ${scope.feature} are turned off in this workspace. A workspace admin can turn them on in Settings → AI.`,
      );
    }
    if (scope.feature === 'highlights' && settings.modes.highlights === 'Off')
      throw new AppError('FORBIDDEN', HIGHLIGHTS_OFF);
    const cap = settings.monthlyTokenCap;
    if (cap !== null && used.promptTokens + used.completionTokens >= cap) {
      const now = new Date();
      const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `This workspace has used its monthly AI cap of ${cap.toLocaleString('en-US')} tokens. A workspace admin can raise the cap in Settings → AI; it resets on the 1st.`,
        { retryAfterSeconds: Math.ceil((nextMonth - now.getTime()) / 1000) },
      );
    }
    return settings;
  }

  async function withRetries<T>(what: string, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!isRetryable(err) || attempt >= ai.maxRetries || signal?.aborted)
          throw err instanceof AppError ? err : unavailable(err);
        // Retry-After when the server says when; else exponential backoff with jitter, capped at 30 s.
        const wait = Math.min(retryAfterMs(err) ?? ai.retryBaseMs * 2 ** attempt * (0.75 + Math.random() / 2), 30_000);
        logger.warn(
          { attempt: attempt + 1, waitMs: Math.round(wait), status: isApiError(err) ? err.status : undefined },
          `AI ${what} failed; retrying`,
        );
        await sleep(wait, signal);
      }
    }
  }

  const record = (scope: AiCallScope, promptTokens: number, completionTokens: number) =>
    scoped(scope.workspaceId, (trx) => addUsage(trx, scope.workspaceId, promptTokens, completionTokens));

  function requireClient(): Promise<OpenAI> {
    const baseURL = ai.baseUrl;
    if (!baseURL)
      throw new AppError(
        'INVALID_OPERATION',
        'No AI model is configured. Set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_CHAT_MODEL) to use this.',
      );
    client ??= loadOpenAI().then(
      (Client) =>
        new Client({
          baseURL,
          // Local servers (Ollama, llama.cpp) take any key; the client insists on one.
          apiKey: ai.apiKey ?? 'none',
          timeout: ai.timeoutMs,
          // Retries are ours, so the cap and Retry-After rules are applied one way for every call.
          maxRetries: 0,
        }),
    );
    return client;
  }

  return {
    model,
    settings: (workspaceId) => scoped(workspaceId, (trx) => readAiSettings(trx, workspaceId)),
    ensureAllowed,
    async chat(scope, request, opts = {}) {
      const c = await requireClient();
      await ensureAllowed(scope);
      const tools = request.tools?.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      const base = {
        model: request.model || ai.chatModel,
        messages: request.messages.map(toWire),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
        ...(tools && tools.length > 0 ? { tools } : {}),
      };
      const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
      let result: ChatResult;
      if (!opts.onDelta) {
        const res = await withRetries('chat', opts.signal, () =>
          c.chat.completions.create({ ...base, stream: false }, { signal: opts.signal }),
        );
        const choice = res.choices[0];
        const text = choice?.message.content ?? '';
        result = {
          text,
          toolCalls: (choice?.message.tool_calls ?? []).flatMap((t) =>
            t.type === 'function' ? [{ id: t.id, name: t.function.name, arguments: t.function.arguments }] : [],
          ),
          model: res.model || ai.chatModel,
          endpointHost,
          promptTokens: res.usage?.prompt_tokens ?? estimateTokens(' '.repeat(promptChars)),
          completionTokens: res.usage?.completion_tokens ?? estimateTokens(text),
        };
      } else {
        const onDelta = opts.onDelta;
        // Only the opening of a stream is retried: once text has been passed on it cannot be taken back.
        const stream = await withRetries('chat stream', opts.signal, () =>
          c.chat.completions.create(
            { ...base, stream: true, stream_options: { include_usage: true } },
            { signal: opts.signal },
          ),
        );
        let text = '';
        let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
        let modelName = ai.chatModel;
        const calls = new Map<number, ToolCall>();
        try {
          for await (const chunk of stream) {
            if (chunk.model) modelName = chunk.model;
            if (chunk.usage) usage = chunk.usage;
            const delta = chunk.choices[0]?.delta;
            if (delta?.content) {
              text += delta.content;
              onDelta(delta.content);
            }
            for (const t of delta?.tool_calls ?? []) {
              const call = calls.get(t.index) ?? { id: t.id ?? '', name: '', arguments: '' };
              if (t.id) call.id = t.id;
              if (t.function?.name) call.name += t.function.name;
              if (t.function?.arguments) call.arguments += t.function.arguments;
              calls.set(t.index, call);
            }
          }
        } catch (err) {
          throw err instanceof AppError ? err : unavailable(err);
        }
        result = {
          text,
          toolCalls: [...calls.values()],
          model: modelName,
          endpointHost,
          promptTokens: usage?.prompt_tokens ?? Math.ceil(promptChars / 4),
          completionTokens: usage?.completion_tokens ?? estimateTokens(text),
        };
      }
      await record(scope, result.promptTokens, result.completionTokens);
      return result;
    },
    async embed(scope, texts) {
      const c = await requireClient();
      if (!ai.embeddingModel)
        throw new AppError(
          'INVALID_OPERATION',
          'No embedding model is configured. Set OPENAI_EMBEDDING_MODEL to use semantic retrieval.',
        );
      await ensureAllowed(scope);
      const embeddingModel = ai.embeddingModel;
      const res = await withRetries('embedding', undefined, () =>
        c.embeddings.create({ model: embeddingModel, input: [...texts] }),
      );
      const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding as number[]);
      const tokens = res.usage?.prompt_tokens ?? texts.reduce((n, t) => n + estimateTokens(t), 0);
      await record(scope, tokens, 0);
      return { vectors, model: embeddingModel, tokens };
    },
    async usage(workspaceId) {
      return scoped(workspaceId, async (trx) => ({
        ...(await readUsage(trx, workspaceId)),
        cap: (await readAiSettings(trx, workspaceId)).monthlyTokenCap,
      }));
    },
  };
}
