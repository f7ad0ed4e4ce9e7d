import type { OAuthFlow } from '@fieldbook/extensions-sdk/server';
import { requiredConfig, slackClient } from './slack.ts';

/** What the bot may do: post confirmations and automation messages, offer the shortcut, list channels. */
/**
 * The product's Slack scopes (001 §7: assistant write, search read public, channels read, groups
 * read, groups history), plus what posting messages and the message shortcut need.
 */
export const SLACK_SCOPES = [
  'assistant:write',
  'search:read.public',
  'channels:read',
  'groups:read',
  'groups:history',
  'channels:history',
  'chat:write',
  'commands',
] as const;

/** Connecting a Slack team to a workspace, through Slack's OAuth v2 install flow. */
export const slackOAuth: OAuthFlow = {
  level: 'workspace',
  authorizeUrl({ state, redirectUri }, ctx) {
    const url = new URL(requiredConfig(ctx, 'authorizeUrl'));
    url.searchParams.set('client_id', requiredConfig(ctx, 'clientId'));
    url.searchParams.set('scope', SLACK_SCOPES.join(','));
    url.searchParams.set('state', state);
    url.searchParams.set('redirect_uri', redirectUri);
    return url.toString();
  },
  async exchange({ code, redirectUri }, ctx) {
    const installation = await slackClient(ctx).exchangeCode({
      clientId: requiredConfig(ctx, 'clientId'),
      clientSecret: requiredConfig(ctx, 'clientSecret'),
      code,
      redirectUri,
    });
    return {
      externalId: installation.team.id,
      label: installation.team.name,
      tokens: { botToken: installation.accessToken, botUserId: installation.botUserId },
    };
  },
};
