import type { InstallationContext, PluginConnection, PluginContext } from '@fieldbook/extensions-sdk/server';
import { createDriveClient, DriveApiError, type DriveClient, type GoogleTokens } from './api/index.ts';

/** The Drive client over the host's egress-guarded fetch, at the operator's API and token roots. */
export function driveClient(ctx: PluginContext): DriveClient {
  return createDriveClient({
    baseUrl: ctx.config.apiUrl,
    // GOOGLE_TOKEN_URL names the token endpoint itself; the client appends `/token` to its root.
    oauthBaseUrl: ctx.config.tokenUrl?.replace(/\/+$/, '').replace(/\/token$/, ''),
    fetch: (input, init) => ctx.http.fetch(input instanceof Request ? input.url : input, init),
  });
}

/** A configuration value the plugin declared as required; the host leaves the plugin unloaded without it. */
export function requiredConfig(ctx: PluginContext, key: string): string {
  const value = ctx.config[key];
  if (!value) throw new Error(`The Google Drive plugin is missing its ${key} configuration.`);
  return value;
}

export function credentials(ctx: PluginContext) {
  return { clientId: requiredConfig(ctx, 'clientId'), clientSecret: requiredConfig(ctx, 'clientSecret') };
}

/** How a person's tokens are stored; a refresh without a new refresh token keeps the old one. */
export function storedTokens(
  tokens: GoogleTokens,
  previous: Readonly<Record<string, string>> = {},
  now = Date.now(),
): Record<string, string> {
  const refreshToken = tokens.refreshToken ?? previous.refreshToken;
  return {
    accessToken: tokens.accessToken,
    ...(refreshToken ? { refreshToken } : {}),
    expiresAt: String(now + tokens.expiresIn * 1000),
  };
}

const EXPIRY_MARGIN_MS = 60_000;

type TokenContext = Pick<InstallationContext<never>, 'saveUserConnectionTokens'> & PluginContext;

/**
 * Runs `call` with a live access token of the person's own Google connection: refreshed first
 * when it has expired, and once more when Google still refuses it (401).
 */
export async function withAccessToken<T>(
  ctx: TokenContext,
  connection: PluginConnection,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  const tokens = connection.tokens;
  const refresh = async (): Promise<string> => {
    if (!tokens.refreshToken) throw new DriveApiError('oauth.token', 'no_refresh_token', 401);
    const next = await driveClient(ctx).refreshAccessToken({ ...credentials(ctx), refreshToken: tokens.refreshToken });
    await ctx.saveUserConnectionTokens(storedTokens(next, tokens));
    return next.accessToken;
  };
  let refreshed = false;
  let accessToken = tokens.accessToken ?? '';
  if (!accessToken || Number(tokens.expiresAt ?? 0) - EXPIRY_MARGIN_MS <= Date.now()) {
    accessToken = await refresh();
    refreshed = true;
  }
  try {
    return await call(accessToken);
  } catch (err) {
    if (refreshed || !(err instanceof DriveApiError) || err.status !== 401) throw err;
    return call(await refresh());
  }
}
