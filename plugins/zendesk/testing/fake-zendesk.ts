import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZendeskTicket, ZendeskUser } from '../server/client.ts';

export interface FakeZendeskOptions {
  email: string;
  apiToken: string;
  tickets?: ZendeskTicket[];
  users?: ZendeskUser[];
  groups?: Array<{ id: number; name: string }>;
  /** The most tickets one export page holds (Zendesk's is 1000); smaller to see several pages. */
  maxPerPage?: number;
}

export interface FakeZendesk {
  url: string;
  tickets: ZendeskTicket[];
  /** Paths and queries of every request, in order, with their status. */
  requests: Array<{ path: string; status: number }>;
  /** The next `n` API requests are answered 429 with `Retry-After: seconds`. */
  rateLimitNext(n: number, seconds: number): void;
  /** Adds or replaces a ticket, stamping `updated_at` now so the export lists it again. */
  upsert(ticket: Omit<ZendeskTicket, 'updated_at' | 'url'>): void;
  close(): Promise<void>;
}

/**
 * Zendesk's REST API as documented, for the calls the plugin makes: basic auth with
 * `{email}/token:{api token}`, the cursor-based incremental ticket export
 * (`/api/v2/incremental/tickets/cursor.json`: `start_time` or `cursor`, `per_page`, sideloaded
 * `users`, `after_cursor`, `end_of_stream`) and the groups list with `next_page` pagination.
 * The export orders tickets by `updated_at`; a cursor is the position after the last one given.
 */
export async function startFakeZendesk(options: FakeZendeskOptions): Promise<FakeZendesk> {
  const tickets: ZendeskTicket[] = [...(options.tickets ?? [])];
  const users = options.users ?? [];
  const groups = options.groups ?? [];
  const requests: Array<{ path: string; status: number }> = [];
  let limited = { count: 0, seconds: 1 };
  // Each change gets a later stamp than every earlier one, so a cursor never skips it.
  let clock = Math.max(0, ...tickets.map((t) => Date.parse(t.updated_at)));
  let url = '';
  const ordered = () => [...tickets].sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at) || a.id - b.id);
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://zendesk.local');
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ path: `${u.pathname}${u.search}`, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const expected = `Basic ${Buffer.from(`${options.email}/token:${options.apiToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return answer(401, { error: "Couldn't authenticate you" });
    if (limited.count > 0) {
      limited.count--;
      return answer(429, { error: 'APIRateLimitExceeded' }, { 'retry-after': String(limited.seconds) });
    }
    if (u.pathname === '/api/v2/groups.json') {
      const perPage = Number(u.searchParams.get('per_page') ?? 100);
      const pageNo = Number(u.searchParams.get('page') ?? 1);
      const slice = groups.slice((pageNo - 1) * perPage, pageNo * perPage);
      const more = pageNo * perPage < groups.length;
      return answer(200, {
        groups: slice,
        next_page: more ? `${url}/api/v2/groups.json?per_page=${perPage}&page=${pageNo + 1}` : null,
        count: groups.length,
      });
    }
    if (u.pathname === '/api/v2/incremental/tickets/cursor.json') {
      const perPage = Math.min(options.maxPerPage ?? 1000, Number(u.searchParams.get('per_page') ?? 1000));
      const all = ordered();
      let start: number;
      const cursor = u.searchParams.get('cursor');
      if (cursor) {
        const after = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { t: number; id: number };
        start = all.findIndex(
          (t) => Date.parse(t.updated_at) > after.t || (Date.parse(t.updated_at) === after.t && t.id > after.id),
        );
      } else {
        const startTime = Number(u.searchParams.get('start_time'));
        if (!Number.isFinite(startTime))
          return answer(400, { error: 'InvalidValue', description: 'start_time is required' });
        start = all.findIndex((t) => Date.parse(t.updated_at) >= startTime * 1000);
      }
      const page = start < 0 ? [] : all.slice(start, start + perPage);
      const last = page.at(-1);
      const afterCursor = last
        ? Buffer.from(JSON.stringify({ t: Date.parse(last.updated_at), id: last.id })).toString('base64url')
        : cursor;
      const end = start < 0 || start + perPage >= all.length;
      const sideloaded = users.filter((us) => page.some((t) => t.requester_id === us.id));
      return answer(200, {
        tickets: page,
        users: sideloaded,
        after_cursor: afterCursor ?? null,
        before_cursor: null,
        end_of_stream: end,
        after_url: null,
      });
    }
    return answer(404, { error: 'InvalidEndpoint' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    tickets,
    requests,
    rateLimitNext(count, seconds) {
      limited = { count, seconds };
    },
    upsert(ticket) {
      clock = Math.max(clock + 1000, Date.now());
      const full: ZendeskTicket = {
        ...ticket,
        url: `${url}/api/v2/tickets/${ticket.id}.json`,
        updated_at: new Date(clock).toISOString(),
      };
      const i = tickets.findIndex((t) => t.id === ticket.id);
      if (i >= 0) tickets[i] = full;
      else tickets.push(full);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
