import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signSlackRequest, recordRequest, type RecordedRequest } from '@fieldbook/extensions-sdk/testing';

export type { RecordedRequest };
import type { SlackMessage } from '../server/api/types.ts';

export interface FakeSlackChannel {
  id: string;
  name: string;
  is_private?: boolean;
  is_archived?: boolean;
  /** Whether the app's bot is in the channel; defaults to true. */
  is_member?: boolean;
  messages?: SlackMessage[];
}

export interface FakeSlackOptions {
  clientId?: string;
  clientSecret?: string;
  /** When set, `oauth.v2.access` refuses any other `redirect_uri` (`bad_redirect_uri`). */
  redirectUri?: string;
  team?: { id: string; name: string; domain: string };
  botToken?: string;
  botUserId?: string;
  appId?: string;
  scope?: string;
  /** Install codes `oauth.v2.access` accepts, each once. */
  codes?: string[];
  channels?: FakeSlackChannel[];
  signingSecret?: string;
}

export interface FakeSlack {
  /** Server root, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Web API root to give the client as `baseUrl`. */
  apiUrl: string;
  /** The consent page (`/oauth/v2/authorize`): approves at once and redirects back with a code. */
  authorizeUrl: string;
  requests: RecordedRequest[];
  /** Requests to one Web API method, e.g. `chat.postMessage`. */
  requestsTo(method: string): RecordedRequest[];
  channels: FakeSlackChannel[];
  botToken: string;
  addCode(code: string): void;
  /** The next call to `method` answers HTTP 429 `ratelimited` with this `Retry-After`. */
  rateLimitNext(method: string, retryAfterSeconds: number): void;
  /** A fresh `response_url`; what is posted to it shows in `responses(url)`. */
  responseUrl(options?: { expired?: boolean }): string;
  responses(responseUrl: string): unknown[];
  /** Headers and body of an Events API or interactivity request signed as Slack signs them. */
  signedRequest(body: string, timestampSeconds?: number): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

type Params = Record<string, string>;
type Answer = { status?: number; headers?: Record<string, string>; body: Record<string, unknown> };

/** Starts a local Slack on 127.0.0.1 speaking the Web API calls Fieldbook makes. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const clientId = options.clientId ?? '1111.2222';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const team = options.team ?? { id: 'T0FAKE001', name: 'Fake Team', domain: 'fake-team' };
  const botToken = options.botToken ?? 'xoxb-fake-bot-token';
  const botUserId = options.botUserId ?? 'U0FAKEBOT';
  const signingSecret = options.signingSecret ?? 'fake-signing-secret';
  const codes = new Set(options.codes ?? ['install-code']);
  const channels = options.channels ?? [];
  const requests: RecordedRequest[] = [];
  const rateLimits = new Map<string, number>();
  const responseUrls = new Map<string, { expired: boolean; posts: unknown[] }>();
  let tsCounter = 0;
  let installs = 0;

  const ok = (body: Record<string, unknown>): Answer => ({ body: { ok: true, ...body } });
  const fail = (error: string): Answer => ({ body: { ok: false, error } });

  function authorised(req: RecordedRequest, params: Params): Answer | null {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : params.token;
    if (!token) return fail('not_authed');
    if (token !== botToken) return fail('invalid_auth');
    return null;
  }

  function channelFor(id: string | undefined): FakeSlackChannel | Answer {
    const channel = channels.find((candidate) => candidate.id === id);
    if (!channel) return fail('channel_not_found');
    if (channel.is_member === false) return fail('not_in_channel');
    return channel;
  }

  function page<T>(items: T[], params: Params): { items: T[]; next: string } | Answer {
    const limit = params.limit === undefined ? 100 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return fail('invalid_limit');
    let offset = 0;
    if (params.cursor) {
      const match = /^offset:(\d+)$/.exec(Buffer.from(params.cursor, 'base64').toString('utf8'));
      if (!match) return fail('invalid_cursor');
      offset = Number(match[1]);
    }
    const end = offset + limit;
    return {
      items: items.slice(offset, end),
      next: end < items.length ? Buffer.from(`offset:${end}`).toString('base64') : '',
    };
  }

  const methods: Record<string, (req: RecordedRequest, params: Params) => Answer> = {
    'oauth.v2.access': (req, params) => {
      let id = params.client_id;
      let secret = params.client_secret;
      const header = req.headers.authorization;
      if (header?.startsWith('Basic ')) {
        const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        id = decoded.slice(0, colon);
        secret = decoded.slice(colon + 1);
      }
      if (id !== clientId) return fail('invalid_client_id');
      if (secret !== clientSecret) return fail('bad_client_secret');
      if (!params.code || !codes.has(params.code)) return fail('invalid_code');
      if (options.redirectUri !== undefined && params.redirect_uri !== options.redirectUri)
        return fail('bad_redirect_uri');
      codes.delete(params.code);
      return ok({
        app_id: options.appId ?? 'A0FAKEAPP',
        authed_user: { id: 'U0INSTALLER' },
        scope: options.scope ?? 'chat:write,channels:read,groups:read,groups:history',
        token_type: 'bot',
        access_token: botToken,
        bot_user_id: botUserId,
        team: { id: team.id, name: team.name },
        enterprise: null,
        is_enterprise_install: false,
      });
    },
    'chat.postMessage': (req, params) => {
      const denied = authorised(req, params);
      if (denied) return denied;
      const channel = channelFor(params.channel);
      if (!('id' in channel)) return channel;
      if (channel.is_archived) return fail('is_archived');
      const blocks = (req.body as { blocks?: unknown[] } | null)?.blocks;
      if (!params.text && !blocks) return fail('no_text');
      if ((params.text ?? '').length > 40_000) return fail('msg_too_long');
      tsCounter += 1;
      const ts = `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, '0')}`;
      const message: SlackMessage = {
        type: 'message',
        ts,
        text: params.text ?? '',
        user: botUserId,
        bot_id: 'B0FAKEBOT',
        ...(blocks ? { blocks } : {}),
      };
      (channel.messages ??= []).push(message);
      return ok({ channel: channel.id, ts, message });
    },
    'conversations.list': (req, params) => {
      const denied = authorised(req, params);
      if (denied) return denied;
      const types = (params.types ?? 'public_channel').split(',');
      const visible = channels.filter(
        (channel) =>
          (channel.is_private
            ? types.includes('private_channel') && channel.is_member !== false
            : types.includes('public_channel')) && !(params.exclude_archived === 'true' && channel.is_archived),
      );
      const result = page(visible, params);
      if (!('items' in result)) return result;
      return ok({
        channels: result.items.map(({ messages: _messages, ...channel }) => ({
          is_channel: true,
          is_private: false,
          is_archived: false,
          is_member: true,
          ...channel,
        })),
        response_metadata: { next_cursor: result.next },
      });
    },
    'conversations.history': (req, params) => {
      const denied = authorised(req, params);
      if (denied) return denied;
      const channel = channelFor(params.channel);
      if (!('id' in channel)) return channel;
      const inclusive = params.inclusive === 'true' || params.inclusive === '1';
      const oldest = Number(params.oldest ?? 0);
      const latest = params.latest === undefined ? Number.POSITIVE_INFINITY : Number(params.latest);
      const inRange = (channel.messages ?? [])
        .filter((message) => {
          const ts = Number(message.ts);
          return inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest;
        })
        .sort((a, b) => Number(b.ts) - Number(a.ts));
      const result = page(inRange, params);
      if (!('items' in result)) return result;
      return ok({
        messages: result.items,
        has_more: result.next !== '',
        response_metadata: { next_cursor: result.next },
      });
    },
    'auth.test': (req, params) => {
      const denied = authorised(req, params);
      if (denied) return denied;
      return ok({
        url: `https://${team.domain}.slack.com/`,
        team: team.name,
        user: 'fieldbook',
        team_id: team.id,
        user_id: botUserId,
        bot_id: 'B0FAKEBOT',
      });
    },
    'chat.getPermalink': (req, params) => {
      const denied = authorised(req, params);
      if (denied) return denied;
      const channel = channels.find((candidate) => candidate.id === params.channel);
      if (!channel) return fail('channel_not_found');
      if (!channel.messages?.some((message) => message.ts === params.message_ts)) return fail('message_not_found');
      return ok({
        channel: channel.id,
        permalink: `https://${team.domain}.slack.com/archives/${channel.id}/p${params.message_ts!.replace('.', '')}`,
      });
    },
  };

  function handleResponseUrl(key: string, req: RecordedRequest): { status: number; text: string } {
    const target = responseUrls.get(key);
    if (!target || target.expired) return { status: 404, text: 'expired_url' };
    const body = req.body as { text?: unknown; blocks?: unknown } | null;
    if (!body || (typeof body.text !== 'string' && !body.blocks)) return { status: 400, text: 'no_text' };
    target.posts.push(body);
    return { status: 200, text: 'ok' };
  }

  const server = createServer((incoming, res) => {
    void recordRequest(incoming).then((req) => {
      requests.push(req);
      const responseUrlMatch = /^\/actions\/([\w-]+)$/.exec(req.path);
      if (req.method === 'POST' && responseUrlMatch) {
        const { status, text } = handleResponseUrl(responseUrlMatch[1]!, req);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
        return;
      }
      // The consent page: the person approves at once, and Slack sends them back with a code.
      if (req.method === 'GET' && req.path === '/oauth/v2/authorize') {
        if (req.query.client_id !== clientId || !req.query.redirect_uri) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_client_id');
          return;
        }
        const code = `install-${++installs}`;
        codes.add(code);
        const back = new URL(req.query.redirect_uri);
        back.searchParams.set('code', code);
        if (req.query.state) back.searchParams.set('state', req.query.state);
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      const methodMatch = /^\/api\/([\w.]+)$/.exec(req.path);
      const handler = methodMatch ? methods[methodMatch[1]!] : undefined;
      if (!methodMatch || !handler) {
        sendJson(res, 404, { ok: false, error: 'unknown_method' });
        return;
      }
      const retryAfter = rateLimits.get(methodMatch[1]!);
      if (retryAfter !== undefined) {
        rateLimits.delete(methodMatch[1]!);
        sendJson(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) });
        return;
      }
      const params: Params = { ...req.query, ...stringParams(req.body) };
      const answer = handler(req, params);
      // Slack answers its own errors with HTTP 200.
      sendJson(res, answer.status ?? 200, answer.body, answer.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let responseUrlCounter = 0;

  return {
    url,
    apiUrl: `${url}/api`,
    authorizeUrl: `${url}/oauth/v2/authorize`,
    requests,
    requestsTo: (method) => requests.filter((req) => req.path === `/api/${method}`),
    channels,
    botToken,
    addCode: (code) => void codes.add(code),
    rateLimitNext: (method, retryAfterSeconds) => void rateLimits.set(method, retryAfterSeconds),
    responseUrl(opts = {}) {
      responseUrlCounter += 1;
      const key = `T0FAKE-${responseUrlCounter}`;
      responseUrls.set(key, { expired: opts.expired ?? false, posts: [] });
      return `${url}/actions/${key}`;
    },
    responses: (responseUrl) => responseUrls.get(responseUrl.split('/').pop() ?? '')?.posts ?? [],
    signedRequest(body, timestampSeconds = Math.floor(Date.now() / 1000)) {
      return { body, headers: signSlackRequest(body, signingSecret, { timestamp: timestampSeconds }) };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function stringParams(body: unknown): Params {
  if (body === null || typeof body !== 'object') return {};
  const params: Params = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') params[key] = value;
  }
  return params;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}
