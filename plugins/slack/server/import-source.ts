import { z } from 'zod';
import {
  defineImportSource,
  fetchWithRetry,
  PluginInputError,
  type InstallationContext,
  type JsonValue,
  type SourceRecord,
} from '@fieldbook/extensions-sdk/server';
import { createSlackClient, SlackApiError, type SlackClient } from './api/index.ts';
import type { SlackMessage } from './api/types.ts';
import { botToken } from './slack.ts';

/** SLACK payload fields (001 §3.4): the channels whose messages come in. */
export const slackSourceSettings = z
  .object({
    channels: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'A channel cannot be empty.')
          .max(200, 'A channel can be at most 200 characters long.'),
        { error: 'channels must be a list.' },
      )
      .min(1, 'Choose at least one Slack channel.')
      .max(50, 'At most 50 channels can be chosen.'),
  })
  .strict();

type Ctx = InstallationContext<never>;

/** Where a listing stands: the channel being read, its page, and per channel the newest message kept. */
interface SlackCursor {
  ids: string[];
  index: number;
  page: string | null;
  /** Newest `ts` seen in the pass over the current channel. */
  newest: string | null;
  /** Per channel, the `ts` after which the next pass reads. */
  after: Record<string, string>;
  /** The team's web address (`auth.test`), from which each message's permalink is made. */
  teamUrl?: string;
}

/** The client over the guarded fetch, waiting out Slack's 429 `Retry-After`. */
function client(ctx: Ctx): SlackClient {
  const config = ctx.config as Record<string, string | undefined>;
  return createSlackClient({
    baseUrl: config.apiUrl,
    fetch: (input, init) => fetchWithRetry(ctx.http, input instanceof Request ? input.url : input, init),
  });
}

const readable = (m: SlackMessage) => !m.subtype && !m.bot_id && m.text.trim().length > 0;
const toIso = (ts: string) => new Date(Math.floor(Number(ts) * 1000)).toISOString();

/**
 * A message's permalink as Slack writes it (the form `chat.getPermalink` answers): the team's
 * address, `archives/<channel>/p` and the `ts` without its dot. Built here rather than asked for
 * message by message, which would cost a rate-limited call per data point.
 */
export function permalink(teamUrl: string, channel: string, ts: string): string {
  return `${teamUrl.replace(/\/+$/, '')}/archives/${encodeURIComponent(channel)}/p${ts.replace('.', '')}`;
}

function record(channel: string, m: SlackMessage, teamUrl: string): SourceRecord {
  return {
    externalId: `${channel}:${m.ts}`,
    externalUrl: permalink(teamUrl, channel, m.ts),
    content: m.text.slice(0, 20000),
    createdAt: toIso(m.ts),
    raw: {
      kind: 'conversation',
      messages: [{ text: m.text, timestamp: toIso(m.ts), participant: m.user ?? null, externalId: m.ts }],
    },
  };
}

function problem(err: unknown): never {
  if (err instanceof SlackApiError) {
    if (['invalid_auth', 'not_authed', 'token_revoked', 'account_inactive'].includes(err.code)) {
      throw new PluginInputError(
        'Slack refused the connection’s token; a workspace admin connects Slack again in Settings → Integrations.',
      );
    }
    if (err.code === 'not_in_channel')
      throw new PluginInputError(
        'The Fieldbook app is not a member of one of the channels; invite it to the channel in Slack.',
      );
    if (err.code === 'channel_not_found')
      throw new PluginInputError('Slack has no such channel, or the Fieldbook app cannot see it.');
  }
  throw err;
}

/**
 * Messages of the chosen Slack channels, each as a data point holding the message as a
 * conversation. Channels are read one after another, newest page first; each channel's next pass
 * reads only messages after the newest one kept.
 */
export const slackMessages = defineImportSource<Ctx, typeof slackSourceSettings>({
  kind: 'SLACK',
  label: 'Slack channels',
  description: 'Messages people post in the chosen Slack channels (the Fieldbook app must be in them).',
  fields: [
    {
      key: 'channels',
      label: 'Channels',
      type: 'string[]',
      required: true,
      description: 'Channel names (without #) or ids.',
    },
  ],
  settings: slackSourceSettings,
  async list(ctx, { settings, cursor, since, pageSize }) {
    const token = botToken(ctx);
    if (!token)
      throw new PluginInputError(
        'Slack is not connected to this workspace; a workspace admin connects it in Settings → Integrations.',
      );
    const slack = client(ctx);
    try {
      let at = cursor as SlackCursor | null;
      if (!at) {
        const all = await slack.listAllConversations(token, { excludeArchived: true });
        const ids = settings.channels.map((wanted) => {
          const name = wanted.replace(/^#/, '').toLowerCase();
          const found = all.find((c) => c.id === wanted || c.name?.toLowerCase() === name);
          if (!found)
            throw new PluginInputError(`Slack has no channel "${wanted}" the Fieldbook app can see.`, {
              field: 'channels',
            });
          return found.id;
        });
        at = { ids, index: 0, page: null, newest: null, after: {} };
      }
      // Asked once a listing and kept in the cursor; a cursor from before it asks again.
      const teamUrl = at.teamUrl ?? (await slack.authTest(token)).url;
      at = { ...at, teamUrl };
      const channel = at.ids[at.index]!;
      const oldest = at.after[channel] ?? String(Math.floor(Date.parse(since) / 1000));
      const page = await slack.history(token, {
        channel,
        oldest,
        cursor: at.page ?? undefined,
        limit: Math.min(200, pageSize),
      });
      const records = page.items.filter(readable).map((m) => record(channel, m, teamUrl));
      const newest = page.items.reduce<string | null>(
        (max, m) => (max === null || Number(m.ts) > Number(max) ? m.ts : max),
        at.newest,
      );
      if (page.nextCursor)
        return { records, cursor: { ...at, page: page.nextCursor, newest } as unknown as JsonValue, hasMore: true };
      // This channel is read: its next pass starts after the newest message, and the next channel begins.
      const after = newest ? { ...at.after, [channel]: newest } : at.after;
      const next = at.index + 1;
      const done = next >= at.ids.length;
      const out: SlackCursor = { ids: at.ids, index: done ? 0 : next, page: null, newest: null, after, teamUrl };
      return { records, cursor: out as unknown as JsonValue, hasMore: !done };
    } catch (err) {
      problem(err);
    }
  },
});
