import { fetchWithRetry, PluginInputError, type PluginHttp } from '@fieldbook/extensions-sdk/server';

/** What the Zendesk client needs: where the account's API is and its API token credential. */
export interface ZendeskAccount {
  /** `https://{subdomain}.zendesk.com`, or the operator's ZENDESK_API_URL. */
  baseUrl: string;
  /** The agent's sign-in email; the token authenticates as `{email}/token`. */
  email: string;
  apiToken: string;
}

export interface ZendeskTicket {
  id: number;
  url: string;
  subject: string | null;
  description: string | null;
  status: string;
  priority: string | null;
  type: string | null;
  tags: string[];
  group_id: number | null;
  requester_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ZendeskUser {
  id: number;
  name: string;
  email: string | null;
}

export interface TicketExportPage {
  tickets: ZendeskTicket[];
  users?: ZendeskUser[];
  after_cursor: string | null;
  end_of_stream: boolean;
}

/** The account root from the subdomain ("acme" or "acme.zendesk.com"), unless the operator set one. */
export function accountUrl(subdomain: string, apiUrl: string | undefined): string {
  if (apiUrl) return apiUrl.replace(/\/$/, '');
  const name = subdomain
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/\.zendesk\.com\/?$/, '');
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(name))
    throw new PluginInputError(`"${subdomain}" is not a Zendesk subdomain; give the part before .zendesk.com.`, {
      field: 'subdomain',
    });
  return `https://${name}.zendesk.com`;
}

/** Zendesk's REST API with basic API-token auth, waiting out rate limits (429 with Retry-After). */
export class ZendeskClient {
  constructor(
    private readonly http: PluginHttp,
    private readonly account: ZendeskAccount,
  ) {}

  private async get<T>(path: string): Promise<T> {
    const auth = Buffer.from(`${this.account.email}/token:${this.account.apiToken}`).toString('base64');
    const res = await fetchWithRetry(this.http, `${this.account.baseUrl}${path}`, {
      headers: { authorization: `Basic ${auth}`, accept: 'application/json' },
    });
    if (res.status === 401 || res.status === 403) {
      throw new PluginInputError(
        `Zendesk refused the email address and API token (HTTP ${res.status}). Check them in Settings → Extensions → Zendesk.`,
      );
    }
    if (res.status === 404)
      throw new PluginInputError(
        `Zendesk has no account at ${this.account.baseUrl}; check the subdomain in Settings → Extensions → Zendesk.`,
      );
    if (res.status === 429)
      throw new PluginInputError(
        'Zendesk kept answering that its rate limit was reached; the next sync goes on from here.',
      );
    if (!res.ok) throw new Error(`Zendesk answered HTTP ${res.status} for ${path.split('?')[0]}.`);
    return (await res.json()) as T;
  }

  /**
   * One page of the incremental ticket export (cursor-based): from `startTime` (Unix seconds) on the
   * first call, then from the page's `after_cursor`, which also finds later changes once the
   * stream's end was reached.
   */
  exportTickets(from: { cursor: string } | { startTime: number }, perPage: number): Promise<TicketExportPage> {
    const query = new URLSearchParams({ per_page: String(perPage), include: 'users' });
    if ('cursor' in from) query.set('cursor', from.cursor);
    else query.set('start_time', String(from.startTime));
    return this.get<TicketExportPage>(`/api/v2/incremental/tickets/cursor.json?${query}`);
  }

  /** Every group of the account (offset pagination, 100 a page). */
  async groups(): Promise<Array<{ id: number; name: string }>> {
    const all: Array<{ id: number; name: string }> = [];
    let path: string | null = '/api/v2/groups.json?per_page=100';
    while (path) {
      const page: { groups: Array<{ id: number; name: string }>; next_page: string | null } = await this.get(path);
      all.push(...page.groups);
      path = page.next_page ? new URL(page.next_page).pathname + new URL(page.next_page).search : null;
    }
    return all;
  }
}
