import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the OpenAI HTTP API as documented: `POST /v1/chat/completions` (plain
 * JSON, or server-sent `data:` chunks ending in `data: [DONE]` with `stream: true`, the usage
 * chunk with `stream_options.include_usage`, tool calls as `tool_calls` deltas), `POST
 * /v1/embeddings` and `GET /v1/models`. Each test scripts what the model answers: routes first
 * (a reply chosen by the prompt, so work running in the background, such as a note's AI steps,
 * never takes a reply meant for another call), then a queue of replies, then `onChat` for the rest. Embeddings are deterministic bags of hashed words, so
 * texts sharing words are near.
 */
export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: unknown[];
}

export type FakeReply =
  | { status: number; retryAfter?: string; message?: string }
  | {
      content: string;
      toolCalls?: Array<{ name: string; arguments: string }>;
      usage?: { prompt: number; completion: number };
      chunkChars?: number;
      delayMs?: number;
    };

/** What a route answers: one reply every time, a list used in order (the last one repeats), or a function of the request. */
export type RouteReply = FakeReply | FakeReply[] | ((body: ChatBody) => FakeReply);

export interface FakeOpenAI {
  url: string;
  /** Replies used in order, before `onChat`, by requests no route claims. */
  script(...replies: FakeReply[]): void;
  /**
   * Claims every chat request whose first system message contains `match` (or matches it): it is
   * answered by `reply`, whatever the queue holds. Routes are tried in the order they were added.
   */
  route(match: string | RegExp, reply: RouteReply): void;
  /** Forgets every route. */
  clearRoutes(): void;
  /** Forgets routes, scripted replies and `onChat`: what one test taught the model stays with that test. */
  reset(): void;
  onChat: (body: ChatBody) => FakeReply;
  /** Every request received: path, body and when it arrived. */
  requests: Array<{ path: string; body: unknown; at: number }>;
  close(): Promise<void>;
}

const DIMENSIONS = 64;

export function embedText(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    let h = 2166136261;
    for (const ch of w) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
    v[Math.abs(h) % DIMENSIONS]! += 1;
  }
  return v;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : null;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first system message of a chat: what identifies the prompt template that made it. */
export function systemPrompt(body: ChatBody): string {
  return body.messages.find((m) => m.role === 'system')?.content ?? '';
}

const answerBlank = (): FakeReply => ({ content: '' });

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queue: FakeReply[] = [];
  const routes: Array<{ match: string | RegExp; reply: RouteReply; used: number }> = [];
  const routed = (chat: ChatBody): FakeReply | null => {
    const system = systemPrompt(chat);
    const r = routes.find((x) => (typeof x.match === 'string' ? system.includes(x.match) : x.match.test(system)));
    if (!r) return null;
    if (typeof r.reply === 'function') return r.reply(chat);
    if (!Array.isArray(r.reply)) return r.reply;
    const reply = r.reply[Math.min(r.used, r.reply.length - 1)]!;
    r.used += 1;
    return reply;
  };
  const fake: FakeOpenAI = {
    url: '',
    script: (...replies) => queue.push(...replies),
    route: (match, reply) => void routes.push({ match, reply, used: 0 }),
    clearRoutes: () => void routes.splice(0),
    reset: () => {
      routes.splice(0);
      queue.splice(0);
      fake.onChat = answerBlank;
    },
    onChat: answerBlank,
    requests: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0]!;
      const body = req.method === 'POST' ? await readBody(req) : null;
      fake.requests.push({ path, body, at: Date.now() });
      if (req.headers.authorization !== 'Bearer test-key')
        return json(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      if (req.method === 'GET' && path === '/v1/models')
        return json(res, 200, {
          object: 'list',
          data: [{ id: 'fake-chat', object: 'model', owned_by: 'fieldbook-tests' }],
        });
      if (req.method === 'POST' && path === '/v1/embeddings') {
        const b = body as { model: string; input: string | string[] };
        const inputs = Array.isArray(b.input) ? b.input : [b.input];
        return json(res, 200, {
          object: 'list',
          model: b.model,
          data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })),
          usage: { prompt_tokens: inputs.join(' ').length, total_tokens: inputs.join(' ').length },
        });
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions')
        return json(res, 404, { error: { message: 'not found' } });
      const chat = body as ChatBody;
      const reply = routed(chat) ?? queue.shift() ?? fake.onChat(chat);
      if ('status' in reply) {
        return json(
          res,
          reply.status,
          { error: { message: reply.message ?? 'scripted failure', type: 'server_error' } },
          reply.retryAfter ? { 'retry-after': reply.retryAfter } : {},
        );
      }
      const usage = {
        prompt_tokens: reply.usage?.prompt ?? 10,
        completion_tokens: reply.usage?.completion ?? 5,
        total_tokens: (reply.usage?.prompt ?? 10) + (reply.usage?.completion ?? 5),
      };
      const id = `chatcmpl-${fake.requests.length}`;
      const created = Math.floor(Date.now() / 1000);
      const toolCalls = (reply.toolCalls ?? []).map((t, i) => ({
        id: `call_${i}`,
        type: 'function',
        function: { name: t.name, arguments: t.arguments },
      }));
      if (!chat.stream) {
        return json(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model: chat.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: reply.content,
                ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
              },
              finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
            },
          ],
          usage,
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      const base = { id, object: 'chat.completion.chunk', created, model: chat.model };
      send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      const size = reply.chunkChars ?? 7;
      for (let i = 0; i < reply.content.length; i += size) {
        if (reply.delayMs) await sleep(reply.delayMs);
        send({
          ...base,
          choices: [{ index: 0, delta: { content: reply.content.slice(i, i + size) }, finish_reason: null }],
        });
      }
      toolCalls.forEach((t, index) =>
        send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, ...t }] }, finish_reason: null }] }),
      );
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: toolCalls.length ? 'tool_calls' : 'stop' }] });
      if (chat.stream_options?.include_usage) send({ ...base, choices: [], usage });
      res.end('data: [DONE]\n\n');
    })().catch((err: unknown) => json(res, 500, { error: { message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

/** Config overrides pointing Fieldbook at a fake server (retries quick, so tests stay short). */
export function aiConfig(
  fake: FakeOpenAI,
  extra: { embeddingModel?: string; maxRetries?: number; timeoutMs?: number } = {},
) {
  return {
    ai: {
      baseUrl: fake.url,
      apiKey: 'test-key',
      chatModel: 'fake-chat',
      embeddingModel: extra.embeddingModel,
      timeoutMs: extra.timeoutMs ?? 10_000,
      maxRetries: extra.maxRetries ?? 3,
      retryBaseMs: 20,
    },
  };
}

/** The sources of an Ask prompt as the model sees them: ref, title and text. */
export function promptSources(body: ChatBody): Array<{ ref: string; title: string; text: string }> {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  return [...user.matchAll(/<source ref="(S\d+)" type="\w+" title="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/source>/g)].map(
    (m) => ({ ref: m[1]!, title: m[2]!, text: m[3]! }),
  );
}

/** The sources of a summary prompt: id and text. */
export function summarySources(body: ChatBody): Array<{ id: string; kind: string; text: string }> {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  return [...user.matchAll(/<source id="([^"]+)" kind="(\w+)">\n([\s\S]*?)\n<\/source>/g)].map((m) => ({
    id: m[1]!,
    kind: m[2]!,
    text: m[3]!,
  }));
}
