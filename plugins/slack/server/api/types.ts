/** The answer of `oauth.v2.access`: the bot token of one installation in one Slack team. */
export interface SlackInstallation {
  accessToken: string;
  tokenType: string;
  scope: string;
  botUserId: string;
  appId: string;
  team: { id: string; name: string };
  enterprise: { id: string; name: string } | null;
  authedUserId: string | null;
}

/** A conversation as `conversations.list` describes it (fields Fieldbook reads). */
export interface SlackChannel {
  id: string;
  name: string;
  is_channel?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  is_member?: boolean;
  num_members?: number;
  topic?: { value: string };
  purpose?: { value: string };
}

/** A message as `conversations.history` and interactivity payloads describe it. */
export interface SlackMessage {
  type: string;
  ts: string;
  text: string;
  user?: string;
  bot_id?: string;
  thread_ts?: string;
  subtype?: string;
  blocks?: unknown[];
}

/** One page of a cursor-paginated Slack answer; `nextCursor` is null on the last page. */
export interface SlackPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** A message to post; `blocks` are Block Kit blocks, `text` the fallback shown in notifications. */
export interface SlackOutgoingMessage {
  channel: string;
  text: string;
  blocks?: unknown[];
  threadTs?: string;
  unfurlLinks?: boolean;
}

/** A reply sent to an interaction's `response_url`. */
export interface SlackResponseUrlMessage {
  text: string;
  blocks?: unknown[];
  responseType?: 'ephemeral' | 'in_channel';
  replaceOriginal?: boolean;
}
