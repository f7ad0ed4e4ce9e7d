import type { InstallationContext, PluginContext } from '@fieldbook/extensions-sdk/server';
import { createZoomClient, ZoomApiError, type ZoomClient, type ZoomTokens } from './api/index.ts';

/** The Zoom client over the host's egress-guarded fetch, at the operator's API and OAuth roots. */
export function zoomClient(ctx: PluginContext): ZoomClient {
  return createZoomClient({
    apiBaseUrl: ctx.config.apiUrl,
    oauthBaseUrl: ctx.config.oauthUrl,
    fetch: (input, init) => ctx.http.fetch(input instanceof Request ? input.url : input, init),
  });
}

/** A configuration value the plugin declared as required; the host leaves the plugin unloaded without it. */
export function requiredConfig(ctx: PluginContext, key: string): string {
  const value = ctx.config[key];
  if (!value) throw new Error(`The Zoom plugin is missing its ${key} configuration.`);
  return value;
}

export function credentials(ctx: PluginContext) {
  return { clientId: requiredConfig(ctx, 'clientId'), clientSecret: requiredConfig(ctx, 'clientSecret') };
}

/** How the connection's tokens are stored: the expiry as epoch milliseconds, so a refresh happens before Zoom refuses. */
export function storedTokens(tokens: ZoomTokens, now = Date.now()): Record<string, string> {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: String(now + tokens.expiresIn * 1000),
  };
}

// A token this close to its end is refreshed first: a download may take a while to start.
const EXPIRY_MARGIN_MS = 60_000;

type TokenContext = Pick<InstallationContext<never>, 'installation' | 'saveConnectionTokens'> & PluginContext;

async function refresh(ctx: TokenContext, refreshToken: string): Promise<string> {
  const next = await zoomClient(ctx).refreshTokens({ ...credentials(ctx), refreshToken });
  // Zoom rotates the refresh token: the old one stops working once this answer arrives.
  await ctx.saveConnectionTokens(storedTokens(next));
  return next.accessToken;
}

/**
 * Runs `call` with a live access token of the workspace's Zoom connection, refreshing it first
 * when it has expired and once more when Zoom still calls it invalid (code 124). Null when no
 * Zoom account is connected.
 */
export async function withAccessToken<T>(
  ctx: TokenContext,
  call: (accessToken: string) => Promise<T>,
): Promise<T | null> {
  const tokens = ctx.installation.connection?.tokens;
  if (!tokens?.accessToken || !tokens.refreshToken) return null;
  let refreshToken = tokens.refreshToken;
  let accessToken = tokens.accessToken;
  if (Number(tokens.expiresAt ?? 0) - EXPIRY_MARGIN_MS <= Date.now()) {
    accessToken = await refresh(ctx, refreshToken);
    refreshToken = '';
  }
  try {
    return await call(accessToken);
  } catch (err) {
    if (!(err instanceof ZoomApiError) || err.code !== '124' || !refreshToken) throw err;
    return call(await refresh(ctx, refreshToken));
  }
}
