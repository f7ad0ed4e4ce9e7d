import { z } from 'zod';
import {
  defineImportSource,
  PluginInputError,
  type InstallationContext,
  type SourceMessage,
  type SourceRecord,
} from '@fieldbook/extensions-sdk/server';
import { IntercomClient, type IntercomAuthor, type IntercomConversation } from './client.ts';

/** INTERCOM payload fields (001 §3.4): teams; none chosen imports every conversation. */
export const intercomSettings = z
  .object({
    teams: z
      .array(
        z.string().trim().min(1, 'A team cannot be empty.').max(200, 'A team can be at most 200 characters long.'),
        { error: 'teams must be a list.' },
      )
      .max(100, 'At most 100 teams can be chosen.')
      .default([]),
  })
  .strict();

type Ctx = InstallationContext<never>;

/** Plain text of a part's body (Intercom sends HTML unless asked for plain text). */
export function plain(body: string | null): string {
  return (body ?? '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

const who = (a: IntercomAuthor): string | null => a.name ?? a.email ?? null;
const isCustomer = (a: IntercomAuthor) => a.type === 'user' || a.type === 'lead' || a.type === 'contact';

function record(c: IntercomConversation, appId: string | undefined): SourceRecord | null {
  const first: SourceMessage = {
    text: plain(c.source.body),
    timestamp: new Date(c.created_at * 1000).toISOString(),
    participant: who(c.source.author),
    externalId: c.source.id,
  };
  const parts = (c.conversation_parts?.conversation_parts ?? [])
    .filter((p) => p.part_type === 'comment' && plain(p.body))
    .map(
      (p): SourceMessage => ({
        text: plain(p.body),
        timestamp: new Date(p.created_at * 1000).toISOString(),
        participant: who(p.author),
        externalId: p.id,
      }),
    );
  const messages = [first, ...parts].filter((m) => m.text);
  if (!messages.length) return null;
  // The feedback is what the customer said; the team's answers stay in the conversation.
  const customerSaid = [
    first,
    ...(c.conversation_parts?.conversation_parts ?? [])
      .filter((p) => p.part_type === 'comment' && isCustomer(p.author))
      .map((p) => ({ text: plain(p.body) })),
  ]
    .map((m) => m.text)
    .filter(Boolean);
  const customer = isCustomer(c.source.author) ? c.source.author : null;
  return {
    externalId: c.id,
    externalUrl: appId
      ? `https://app.intercom.com/a/inbox/${encodeURIComponent(appId)}/inbox/conversation/${encodeURIComponent(c.id)}`
      : null,
    content:
      [c.title?.trim(), ...customerSaid].filter(Boolean).join('\n\n').slice(0, 20000) ||
      messages[0]!.text.slice(0, 20000),
    createdAt: new Date(c.created_at * 1000).toISOString(),
    person: customer?.email ? { email: customer.email, name: customer.name } : null,
    raw: { kind: 'conversation', messages: messages.slice(0, 1000) },
  };
}

interface IntercomCursor {
  /** Conversations updated at or after this second (Unix seconds) are listed. */
  from: number;
  /** Conversations already read that were updated in the second `from`: they are not read again. */
  readAt: string[];
  /** The newest update seen in the pass under way, and the conversations updated in that second. */
  seen: number;
  seenIds: string[];
  startingAfter: string | null;
  teamIds?: string[];
}

/** A cursor kept before the listing became inclusive (`updatedAfter`, exclusive) reads on from that second. */
function cursorOf(saved: unknown, start: number): IntercomCursor {
  const c = saved as (Partial<IntercomCursor> & { updatedAfter?: number }) | null;
  if (!c) return { from: start, readAt: [], seen: start, seenIds: [], startingAfter: null };
  const from = c.from ?? c.updatedAfter ?? start;
  return {
    from,
    readAt: c.readAt ?? [],
    seen: c.seen ?? from,
    seenIds: c.seenIds ?? c.readAt ?? [],
    startingAfter: c.startingAfter ?? null,
    ...(c.teamIds ? { teamIds: c.teamIds } : {}),
  };
}

/**
 * Intercom conversations through the conversation search (updated since the last pass, oldest
 * change first, `starting_after` pagination), each read whole for its messages. A pass ends when
 * the search has no next page. Intercom's `updated_at` counts whole seconds, so a conversation can
 * change in the same second as the newest one read: the next pass lists from that second again
 * (inclusive) and leaves out, by id, the conversations it already read in that second.
 */
export const intercomConversations = defineImportSource<Ctx, typeof intercomSettings>({
  kind: 'INTERCOM',
  label: 'Intercom conversations',
  description:
    'Conversations of your Intercom workspace assigned to the chosen teams, each as one data point with its messages.',
  fields: [
    {
      key: 'teams',
      label: 'Teams',
      type: 'string[]',
      description: 'Team names or ids; leave empty for every conversation.',
    },
  ],
  settings: intercomSettings,
  async list(ctx, { settings, cursor, since, pageSize }) {
    const installation = ctx.installation.settings as Record<string, string | undefined>;
    const config = ctx.config as Record<string, string | undefined>;
    if (!installation.accessToken)
      throw new PluginInputError(
        'Intercom is not set up: a workspace admin fills in the access token in Settings → Extensions → Intercom.',
      );
    const client = new IntercomClient(ctx.http, config.apiUrl ?? 'https://api.intercom.io', installation.accessToken);
    const start = Math.floor(Date.parse(since) / 1000);
    const at = cursorOf(cursor, start);
    let teamIds = at.teamIds;
    if (!teamIds) {
      teamIds = [];
      if (settings.teams.length) {
        const teams = await client.teams();
        teamIds = settings.teams.map((wanted) => {
          const found = teams.find((t) => t.id === wanted || t.name.toLowerCase() === wanted.toLowerCase());
          if (!found) throw new PluginInputError(`Intercom has no team "${wanted}".`, { field: 'teams' });
          return found.id;
        });
      }
    }
    // Each conversation is read whole, so a page stays small enough for one call's time.
    const page = await client.searchConversations({
      updatedFrom: at.from,
      teamIds,
      perPage: Math.min(50, pageSize),
      startingAfter: at.startingAfter,
    });
    const records: SourceRecord[] = [];
    let seen = at.seen;
    let seenIds = at.seenIds;
    for (const found of page.conversations) {
      if (found.updated_at > seen) {
        seen = found.updated_at;
        seenIds = [];
      }
      if (found.updated_at === seen && !seenIds.includes(found.id)) seenIds = [...seenIds, found.id];
      if (found.updated_at === at.from && at.readAt.includes(found.id)) continue;
      const r = record(await client.conversation(found.id), installation.appId);
      if (r) records.push(r);
    }
    const next = page.pages.next?.starting_after ?? null;
    const cursorOut: IntercomCursor = next
      ? { from: at.from, readAt: at.readAt, seen, seenIds, startingAfter: next, teamIds }
      : { from: seen, readAt: seenIds, seen, seenIds, startingAfter: null, teamIds };
    return { records, cursor: { ...cursorOut }, hasMore: next !== null };
  },
});
