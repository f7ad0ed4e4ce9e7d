import type { PluginContext } from '@fieldbook/extensions-sdk/server';
import { createSlackClient, type SlackClient } from './api/index.ts';

/** The Slack client over the host's egress-guarded fetch, at the operator's API root. */
export function slackClient(ctx: PluginContext): SlackClient {
  return createSlackClient({
    baseUrl: ctx.config.apiUrl,
    fetch: (input, init) => ctx.http.fetch(input instanceof Request ? input.url : input, init),
  });
}

/** A configuration value the plugin declared as required; the host leaves the plugin unloaded without it. */
export function requiredConfig(ctx: PluginContext, key: string): string {
  const value = ctx.config[key];
  if (!value) throw new Error(`The Slack plugin is missing its ${key} configuration.`);
  return value;
}

/** The bot token of the workspace's connected Slack team, or null when none is connected. */
export function botToken(ctx: {
  installation: { connection: { tokens: Readonly<Record<string, string>> } | null };
}): string | null {
  return ctx.installation.connection?.tokens.botToken ?? null;
}
