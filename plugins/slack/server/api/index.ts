export { SlackApiError } from './errors.ts';
export { createSlackClient, SLACK_API_BASE_URL } from './client.ts';
export type { HistoryOptions, ListConversationsOptions, SlackClient, SlackClientOptions } from './client.ts';
export { parseSlackEventEnvelope, parseSlackMessageAction } from './events.ts';
export type {
  SlackAppRateLimited,
  SlackEventCallback,
  SlackEventEnvelope,
  SlackInnerEvent,
  SlackMessageAction,
  SlackUrlVerification,
} from './events.ts';
export type * from './types.ts';
