import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IntercomConversation } from '../server/client.ts';

export interface FakeIntercom {
  url: string;
  conversations: IntercomConversation[];
  requests: Array<{ method: string; path: string; status: number; body: unknown }>;
  /** The next `n` requests are answered 429 with `X-RateLimit-Reset` `seconds` from now. */
  rateLimitNext(n: number, seconds: number): void;
  /**
   * Adds or replaces a conversation, its `updated_at` now (and later than any before), or with
   * `sameSecond` in the second of the last change (Intercom's dates are whole seconds).
   */
  upsert(conversation: IntercomConversation, options?: { sameSecond?: boolean }): void;
  close(): Promise<void>;
}

/**
 * Intercom's REST API as documented, for what the plugin calls: bearer tokens, `GET /teams`,
 * `POST /conversations/search` (an AND of `updated_at >` and `team_assignee_id IN`, sorted by
 * `updated_at`, `pagination.per_page` and `starting_after`, `pages.next.starting_after`) and
 * `GET /conversations/{id}` with its parts. The rate limit answers 429 with `X-RateLimit-Reset`.
 */
export async function startFakeIntercom(options: {
  token: string;
  teams: Array<{ id: string; name: string }>;
  conversations: IntercomConversation[];
  maxPerPage?: number;
}): Promise<FakeIntercom> {
  const conversations = [...options.conversations];
  const requests: FakeIntercom['requests'] = [];
  let limited = { count: 0, seconds: 1 };
  let clock = Math.max(0, ...conversations.map((c) => c.updated_at));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://intercom.local');
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : null;
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        requests.push({ method: req.method ?? 'GET', path: u.pathname, status, body });
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${options.token}`)
        return answer(401, { type: 'error.list', errors: [{ code: 'unauthorized', message: 'Access Token Invalid' }] });
      if (limited.count > 0) {
        limited.count--;
        return answer(
          429,
          { type: 'error.list', errors: [{ code: 'rate_limit_exceeded' }] },
          { 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + limited.seconds) },
        );
      }
      if (req.method === 'GET' && u.pathname === '/teams')
        return answer(200, { type: 'team.list', teams: options.teams });
      if (req.method === 'POST' && u.pathname === '/conversations/search') {
        const query = (body?.query ?? {}) as { value: Array<{ field: string; operator: string; value: unknown }> };
        const pagination = (body?.pagination ?? {}) as { per_page?: number; starting_after?: string };
        let found = [...conversations].sort((a, b) => a.updated_at - b.updated_at || a.id.localeCompare(b.id));
        for (const rule of query.value ?? []) {
          if (rule.field === 'updated_at' && rule.operator === '>')
            found = found.filter((c) => c.updated_at > Number(rule.value));
          if (rule.field === 'team_assignee_id' && rule.operator === 'IN')
            found = found.filter((c) => (rule.value as string[]).includes(c.team_assignee_id ?? ''));
        }
        const perPage = Math.min(options.maxPerPage ?? 150, pagination.per_page ?? 20);
        const offset = pagination.starting_after
          ? Number(Buffer.from(pagination.starting_after, 'base64url').toString())
          : 0;
        const page = found.slice(offset, offset + perPage).map(({ conversation_parts: _parts, ...rest }) => rest);
        const more = offset + perPage < found.length;
        return answer(200, {
          type: 'conversation.list',
          conversations: page,
          total_count: found.length,
          pages: {
            type: 'pages',
            per_page: perPage,
            next: more ? { starting_after: Buffer.from(String(offset + perPage)).toString('base64url') } : null,
          },
        });
      }
      const one = /^\/conversations\/([^/]+)$/.exec(u.pathname);
      if (req.method === 'GET' && one) {
        const c = conversations.find((x) => x.id === decodeURIComponent(one[1]!));
        return c
          ? answer(200, { type: 'conversation', ...c })
          : answer(404, { type: 'error.list', errors: [{ code: 'not_found' }] });
      }
      return answer(404, { type: 'error.list', errors: [{ code: 'not_found' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    conversations,
    requests,
    rateLimitNext(count, seconds) {
      limited = { count, seconds };
    },
    upsert(conversation, upsertOptions) {
      if (!upsertOptions?.sameSecond) clock = Math.max(clock + 1, Math.floor(Date.now() / 1000));
      const full = { ...conversation, updated_at: clock };
      const i = conversations.findIndex((c) => c.id === conversation.id);
      if (i >= 0) conversations[i] = full;
      else conversations.push(full);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
