import { fetchWithRetry, PluginInputError, type PluginHttp } from '@fieldbook/extensions-sdk/server';

/** The Intercom REST API version the plugin reads (sent as `Intercom-Version`). */
export const INTERCOM_VERSION = '2.11';

export interface IntercomAuthor {
  type: 'user' | 'lead' | 'admin' | 'bot' | 'team' | string;
  id: string;
  name: string | null;
  email: string | null;
}

export interface IntercomPart {
  id: string;
  part_type: string;
  body: string | null;
  created_at: number;
  author: IntercomAuthor;
}

export interface IntercomConversation {
  id: string;
  created_at: number;
  updated_at: number;
  title: string | null;
  state: string;
  team_assignee_id: string | null;
  tags?: { tags: Array<{ id: string; name: string }> };
  source: { id: string; type: string; body: string | null; url: string | null; author: IntercomAuthor };
  conversation_parts?: { conversation_parts: IntercomPart[]; total_count: number };
}

export interface ConversationSearchPage {
  conversations: IntercomConversation[];
  pages: { next?: { starting_after: string } | null };
  total_count: number;
}

/** Intercom's REST API with a bearer access token, waiting out its rate limit (429, X-RateLimit-Reset). */
export class IntercomClient {
  constructor(
    private readonly http: PluginHttp,
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const res = await fetchWithRetry(this.http, `${this.baseUrl.replace(/\/$/, '')}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        'intercom-version': INTERCOM_VERSION,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    if (res.status === 401 || res.status === 403)
      throw new PluginInputError(
        `Intercom refused the access token (HTTP ${res.status}). A workspace admin checks it in Settings → Extensions → Intercom.`,
      );
    if (res.status === 429)
      throw new PluginInputError(
        'Intercom kept answering that its rate limit was reached; the next sync goes on from here.',
      );
    if (!res.ok)
      throw new Error(`Intercom answered HTTP ${res.status} for ${init.method ?? 'GET'} ${path.split('?')[0]}.`);
    return (await res.json()) as T;
  }

  async teams(): Promise<Array<{ id: string; name: string }>> {
    return (await this.call<{ teams: Array<{ id: string; name: string }> }>('/teams')).teams;
  }

  /**
   * Conversations updated at or after `updatedFrom` (Unix seconds), oldest change first, a page at
   * a time. The search has `>` but no `>=`, and its dates are whole seconds: `> from - 1` is `>= from`.
   */
  searchConversations(input: {
    updatedFrom: number;
    teamIds: string[];
    perPage: number;
    startingAfter: string | null;
  }): Promise<ConversationSearchPage> {
    const value: unknown[] = [{ field: 'updated_at', operator: '>', value: input.updatedFrom - 1 }];
    if (input.teamIds.length) value.push({ field: 'team_assignee_id', operator: 'IN', value: input.teamIds });
    return this.call('/conversations/search', {
      method: 'POST',
      body: {
        query: { operator: 'AND', value },
        sort: { field: 'updated_at', order: 'ascending' },
        pagination: {
          per_page: input.perPage,
          ...(input.startingAfter ? { starting_after: input.startingAfter } : {}),
        },
      },
    });
  }

  /** One conversation with its parts (messages, notes, assignments). */
  conversation(id: string): Promise<IntercomConversation> {
    return this.call(`/conversations/${encodeURIComponent(id)}?display_as=plaintext`);
  }
}
