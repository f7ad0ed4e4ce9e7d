import type { OAuthFlow } from '@fieldbook/extensions-sdk/server';
import { credentials, requiredConfig, storedTokens, zoomClient } from './zoom.ts';

/**
 * Connecting a Zoom account to a workspace (an account-level OAuth app). The Zoom account id
 * identifies the connection, so recording events find the workspace that connected it.
 */
export const zoomOAuth: OAuthFlow = {
  level: 'workspace',
  authorizeUrl({ state, redirectUri }, ctx) {
    const url = new URL(`${requiredConfig(ctx, 'oauthUrl').replace(/\/+$/, '')}/oauth/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', requiredConfig(ctx, 'clientId'));
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  },
  async exchange({ code, redirectUri }, ctx) {
    const client = zoomClient(ctx);
    const tokens = await client.exchangeCode({ ...credentials(ctx), code, redirectUri });
    const me = await client.getMe(tokens.accessToken);
    return {
      externalId: me.account_id,
      label: me.display_name || [me.first_name, me.last_name].filter(Boolean).join(' ') || me.email,
      tokens: storedTokens(tokens),
    };
  },
};
