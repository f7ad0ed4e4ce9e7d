import { SlackApiError } from './errors.ts';
import type {
  SlackChannel,
  SlackInstallation,
  SlackMessage,
  SlackOutgoingMessage,
  SlackPage,
  SlackResponseUrlMessage,
} from './types.ts';

export const SLACK_API_BASE_URL = 'https://slack.com/api';

export interface SlackClientOptions {
  /** The fetch the plugin host hands the plugin (egress-guarded); the global fetch is never used. */
  fetch: typeof fetch;
  /** Web API root; `https://slack.com/api` unless a test points it elsewhere. */
  baseUrl?: string;
}

export interface ListConversationsOptions {
  cursor?: string;
  /** Page size; Slack allows up to 1000 and recommends at most 200. */
  limit?: number;
  /** Defaults to public and private channels. */
  types?: Array<'public_channel' | 'private_channel' | 'mpim' | 'im'>;
  excludeArchived?: boolean;
}

export interface HistoryOptions {
  channel: string;
  cursor?: string;
  limit?: number;
  latest?: string;
  oldest?: string;
  inclusive?: boolean;
}

export interface SlackClient {
  /** `oauth.v2.access`: trades the code of the install redirect for the installation's bot token. */
  exchangeCode(input: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
  }): Promise<SlackInstallation>;
  /** `chat.postMessage`; answers the channel and the new message's `ts`. */
  postMessage(token: string, message: SlackOutgoingMessage): Promise<{ channel: string; ts: string }>;
  /** One page of `conversations.list`. */
  listConversations(token: string, options?: ListConversationsOptions): Promise<SlackPage<SlackChannel>>;
  /** Every page of `conversations.list`, up to `maxPages` pages. */
  listAllConversations(
    token: string,
    options?: Omit<ListConversationsOptions, 'cursor'> & { maxPages?: number },
  ): Promise<SlackChannel[]>;
  /** One page of `conversations.history`, newest first. */
  history(token: string, options: HistoryOptions): Promise<SlackPage<SlackMessage> & { hasMore: boolean }>;
  /** The one message with timestamp `ts` in `channel`, or null when Slack has none. */
  getMessage(token: string, channel: string, ts: string): Promise<SlackMessage | null>;
  /** `auth.test`: the token's team and its web address (`https://acme.slack.com/`). */
  authTest(token: string): Promise<{ teamId: string; url: string }>;
  /** `chat.getPermalink`: the link people open to see the message in Slack. */
  getPermalink(token: string, channel: string, messageTs: string): Promise<string>;
  /** Replies through an interaction's `response_url` (no token: the URL itself authorises). */
  respond(responseUrl: string, message: SlackResponseUrlMessage): Promise<void>;
}

type Answer = Record<string, unknown>;

interface CallInit {
  token?: string;
  basic?: { user: string; password: string };
  query?: Record<string, string | undefined>;
  form?: Record<string, string>;
  json?: unknown;
}

/** A client for the Slack Web API speaking Slack's wire format; see each method's TSDoc. */
export function createSlackClient(options: SlackClientOptions): SlackClient {
  const baseUrl = (options.baseUrl ?? SLACK_API_BASE_URL).replace(/\/+$/, '');
  const doFetch = options.fetch;

  async function call(method: string, init: CallInit): Promise<Answer> {
    const url = new URL(`${baseUrl}/${method}`);
    for (const [key, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    const headers: Record<string, string> = {};
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    if (init.basic) {
      headers.authorization = `Basic ${Buffer.from(`${init.basic.user}:${init.basic.password}`).toString('base64')}`;
    }
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      // Slack warns (missing_charset) when a JSON body does not name its charset.
      headers['content-type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(init.json);
    }
    const response = await doFetch(url, { method: body === undefined ? 'GET' : 'POST', headers, body });
    const answer = await readJson(response);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new SlackApiError(
        method,
        errorCode(answer) ?? 'ratelimited',
        429,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
      );
    }
    if (!answer || answer.ok !== true) {
      throw new SlackApiError(method, errorCode(answer) ?? `http_${response.status}`, response.status);
    }
    return answer;
  }

  async function listConversations(
    token: string,
    opts: ListConversationsOptions = {},
  ): Promise<SlackPage<SlackChannel>> {
    const answer = await call('conversations.list', {
      token,
      query: {
        types: (opts.types ?? ['public_channel', 'private_channel']).join(','),
        exclude_archived: opts.excludeArchived === undefined ? undefined : String(opts.excludeArchived),
        limit: String(opts.limit ?? 200),
        cursor: opts.cursor || undefined,
      },
    });
    return { items: arrayOf<SlackChannel>(answer.channels), nextCursor: nextCursor(answer) };
  }

  async function history(token: string, opts: HistoryOptions): Promise<SlackPage<SlackMessage> & { hasMore: boolean }> {
    const answer = await call('conversations.history', {
      token,
      query: {
        channel: opts.channel,
        cursor: opts.cursor || undefined,
        limit: opts.limit === undefined ? undefined : String(opts.limit),
        latest: opts.latest,
        oldest: opts.oldest,
        inclusive: opts.inclusive === undefined ? undefined : String(opts.inclusive),
      },
    });
    return {
      items: arrayOf<SlackMessage>(answer.messages),
      nextCursor: nextCursor(answer),
      hasMore: answer.has_more === true,
    };
  }

  return {
    async exchangeCode({ clientId, clientSecret, code, redirectUri }) {
      // Slack prefers the client credentials in HTTP Basic rather than in the form.
      const answer = await call('oauth.v2.access', {
        basic: { user: clientId, password: clientSecret },
        form: { code, redirect_uri: redirectUri },
      });
      const team = objectOf(answer.team);
      const enterprise = objectOf(answer.enterprise);
      const authedUser = objectOf(answer.authed_user);
      return {
        accessToken: requireString('oauth.v2.access', answer.access_token),
        tokenType: stringOf(answer.token_type) ?? 'bot',
        scope: stringOf(answer.scope) ?? '',
        botUserId: requireString('oauth.v2.access', answer.bot_user_id),
        appId: stringOf(answer.app_id) ?? '',
        team: { id: requireString('oauth.v2.access', team?.id), name: stringOf(team?.name) ?? '' },
        enterprise: enterprise ? { id: stringOf(enterprise.id) ?? '', name: stringOf(enterprise.name) ?? '' } : null,
        authedUserId: stringOf(authedUser?.id) ?? null,
      };
    },

    async postMessage(token, message) {
      const answer = await call('chat.postMessage', {
        token,
        json: {
          channel: message.channel,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
          ...(message.unfurlLinks === undefined ? {} : { unfurl_links: message.unfurlLinks }),
        },
      });
      return {
        channel: requireString('chat.postMessage', answer.channel),
        ts: requireString('chat.postMessage', answer.ts),
      };
    },

    listConversations,

    async listAllConversations(token, opts = {}) {
      const { maxPages = 50, ...pageOptions } = opts;
      const channels: SlackChannel[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < maxPages; page += 1) {
        const result: SlackPage<SlackChannel> = await listConversations(token, {
          ...pageOptions,
          ...(cursor ? { cursor } : {}),
        });
        channels.push(...result.items);
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return channels;
    },

    history,

    async getMessage(token, channel, ts) {
      const page = await history(token, { channel, latest: ts, oldest: ts, inclusive: true, limit: 1 });
      return page.items.find((message) => message.ts === ts) ?? null;
    },

    async authTest(token) {
      const answer = await call('auth.test', { token });
      return { teamId: requireString('auth.test', answer.team_id), url: requireString('auth.test', answer.url) };
    },

    async getPermalink(token, channel, messageTs) {
      const answer = await call('chat.getPermalink', { token, query: { channel, message_ts: messageTs } });
      return requireString('chat.getPermalink', answer.permalink);
    },

    async respond(responseUrl, message) {
      const response = await doFetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          response_type: message.responseType ?? 'ephemeral',
          ...(message.replaceOriginal === undefined ? {} : { replace_original: message.replaceOriginal }),
        }),
      });
      if (!response.ok) {
        // response_url failures come back as a bare error word (e.g. `expired_url`) or JSON.
        const text = (await response.text()).trim();
        const parsed = safeJson(text);
        const code = errorCode(parsed) ?? (/^[a-z_]{1,64}$/.test(text) ? text : `http_${response.status}`);
        throw new SlackApiError('response_url', code, response.status);
      }
    },
  };
}

async function readJson(response: Response): Promise<Answer | null> {
  return safeJson(await response.text());
}

function safeJson(text: string): Answer | null {
  try {
    const value: unknown = JSON.parse(text);
    return objectOf(value);
  } catch {
    return null;
  }
}

function errorCode(answer: Answer | null): string | undefined {
  return stringOf(answer?.error);
}

function nextCursor(answer: Answer): string | null {
  return stringOf(objectOf(answer.response_metadata)?.next_cursor) || null;
}

function objectOf(value: unknown): Answer | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Answer) : null;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function arrayOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function requireString(method: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new SlackApiError(method, 'unexpected_response', 200);
  return value;
}
