import type Router from '@koa/router';
import type Koa from 'koa';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, forbidden, notFound } from '../../errors/app-error.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { installations } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';
import {
  decodeAuthState,
  encodeAuthState,
  safeOrigin,
  STATE_TTL_SECONDS,
  XSRF_COOKIE,
  type AuthState,
} from './state.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** Where the provider sends people back: workspace connections and personal ones have their own path. */
export function callbackPath(plugin: LoadedPlugin): string {
  return plugin.definition.server.oauth?.level === 'user'
    ? `/account/integration/oauth/${plugin.id}`
    : `/oauth/${plugin.id}/authorize`;
}

export interface StartInput {
  pluginId: string;
  source: string;
  origin?: string | null;
  options?: Record<string, string | number | boolean>;
}

/**
 * Starts connecting an account: stores the state, binds it to this browser by an httpOnly cookie,
 * and returns the provider's consent URL. Workspace connections are for admins; anyone may connect
 * their own account.
 */
export async function startAuthorization(host: PluginHost, ctx: RequestContext, input: StartInput): Promise<string> {
  const plugin = host.catalog.ready(input.pluginId);
  const flow = plugin?.definition.server.oauth;
  if (!plugin || !flow) throw notFound('That integration');
  const { viewer, workspace } = ctx.authorize(flow.level === 'workspace' ? 'workspace:admin' : 'profile:update');
  if (input.source.length > 100)
    throw new AppError('BAD_USER_INPUT', 'The source can be at most 100 characters.', { field: 'source' });
  const origin = safeOrigin(
    input.origin,
    flow.level === 'workspace' ? '/settings/integrations' : '/settings/user/integrations',
  );
  const xsrf = randomBytes(24).toString('base64url');
  const options = input.options ?? {};
  if (JSON.stringify(options).length > 2000)
    throw new AppError('BAD_USER_INPUT', 'The options can be at most 2000 characters.', { field: 'options' });
  const [row] = await ctx.tx((trx) =>
    trx('integration_auth_states')
      .insert({
        workspace_id: workspace.id,
        user_id: viewer.userId,
        plugin_id: plugin.id,
        xsrf_hash: sha256(xsrf),
        origin,
        source: input.source,
        options,
        expires_at: new Date(Date.now() + STATE_TTL_SECONDS * 1000),
      })
      .returning<Array<{ id: string }>>('id'),
  );
  const state = encodeAuthState({
    id: row!.id,
    workspaceId: workspace.id,
    xsrf,
    origin,
    source: input.source,
    options,
  });
  if (ctx.koa) {
    ctx.koa.cookies.set(XSRF_COOKIE, xsrf, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: ctx.koa.secure,
      maxAge: STATE_TTL_SECONDS * 1000,
      overwrite: true,
    });
  }
  return flow.authorizeUrl(
    { state, redirectUri: `${host.deps.publicUrl.replace(/\/$/, '')}${callbackPath(plugin)}` },
    host.pluginContext(plugin),
  );
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

interface StoredState {
  id: string;
  user_id: string;
  plugin_id: string;
  xsrf_hash: string;
  origin: string;
  source: string;
  options: Record<string, unknown>;
  expires_at: Date;
}

/** Takes the stored state (single use) and checks every part; null when anything differs. */
async function claimState(
  host: PluginHost,
  plugin: LoadedPlugin,
  state: AuthState,
  cookie: string | undefined,
): Promise<StoredState | null> {
  if (!cookie || !sameText(cookie, state.xsrf)) return null;
  const stored = await host.inWorkspace(state.workspaceId, async (trx) => {
    const rows = await trx('integration_auth_states').where({ id: state.id }).delete().returning<StoredState[]>('*');
    return rows[0] ?? null;
  });
  if (!stored || stored.plugin_id !== plugin.id || stored.expires_at.getTime() < Date.now()) return null;
  if (
    !sameText(stored.xsrf_hash, sha256(state.xsrf)) ||
    stored.origin !== state.origin ||
    stored.source !== state.source
  )
    return null;
  if (JSON.stringify(stored.options) !== JSON.stringify(state.options)) return null;
  return stored;
}

function withParams(path: string, params: Record<string, string>): string {
  const url = new URL(path, 'http://app.invalid');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}`;
}

async function callback(ctx: Koa.Context, host: PluginHost, plugin: LoadedPlugin): Promise<void> {
  const flow = plugin.definition.server.oauth!;
  const state = decodeAuthState(typeof ctx.query.state === 'string' ? ctx.query.state : undefined);
  const stored = state ? await claimState(host, plugin, state, ctx.cookies.get(XSRF_COOKIE)) : null;
  ctx.cookies.set(XSRF_COOKIE, null, { httpOnly: true, sameSite: 'lax', path: '/', overwrite: true });
  if (!state || !stored) {
    host.deps.logger.warn({ plugin: plugin.id }, 'integration authorization refused: state mismatch');
    ctx.status = 400;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body =
      'This authorization does not match the one started in this browser, or it has expired. Start connecting again from Fieldbook’s settings.';
    return;
  }
  const back = (params: Record<string, string>) => ctx.redirect(withParams(state.origin, params));
  if (typeof ctx.query.error === 'string' || typeof ctx.query.code !== 'string') {
    back({
      integration: plugin.id,
      integrationError: `${plugin.manifest.name} was not connected: ${String(ctx.query.error ?? 'no code was returned')}.`,
    });
    return;
  }
  try {
    const grant = await flow.exchange(
      { code: ctx.query.code, redirectUri: `${host.deps.publicUrl.replace(/\/$/, '')}${callbackPath(plugin)}` },
      host.pluginContext(plugin),
    );
    const tokens = host.deps.box.seal(grant.tokens);
    await host.inWorkspace(state.workspaceId, async (trx) => {
      if (flow.level === 'user') {
        await trx('plugin_user_connections')
          .insert({
            workspace_id: state.workspaceId,
            user_id: stored.user_id,
            plugin_id: plugin.id,
            external_id: grant.externalId ?? null,
            label: grant.label ?? null,
            tokens,
          })
          .onConflict(['workspace_id', 'user_id', 'plugin_id'])
          .merge(['external_id', 'label', 'tokens']);
        return;
      }
      const updated = await installations(trx)
        .where({ plugin_id: plugin.id })
        .update({
          external_id: grant.externalId ?? null,
          connection_label: grant.label ?? null,
          connection_tokens: tokens,
          updated_at: new Date(),
        });
      if (!updated) throw forbidden(`Install ${plugin.manifest.name} before connecting it.`);
    });
    if (flow.level === 'user')
      ctx.redirect(withParams(`/account/integration/oauth/${plugin.id}/confirm`, { origin: state.origin }));
    else back({ integration: plugin.id, connected: '1' });
  } catch (err) {
    const taken = err instanceof Error && /plugin_installations_plugin_id_external_id_unique/.test(err.message);
    host.deps.logger.warn(
      { plugin: plugin.id, err: err instanceof Error ? err.message : String(err) },
      'integration authorization failed',
    );
    const message = taken
      ? 'That account is already connected to another workspace.'
      : err instanceof AppError
        ? err.message
        : `${plugin.manifest.name} could not be connected. Try again, and check the plugin’s configuration if it keeps failing.`;
    back({ integration: plugin.id, integrationError: message });
  }
}

/** The providers' redirect targets: /oauth/{integration}/authorize and /account/integration/oauth/{integration}. */
export function oauthRoutes(router: Router, host: PluginHost): void {
  for (const plugin of host.catalog.plugins) {
    if (!plugin.definition.server.oauth) continue;
    router.get(callbackPath(plugin), async (ctx) => {
      if (!host.catalog.ready(plugin.id)) {
        ctx.status = 404;
        return;
      }
      await callback(ctx, host, plugin);
    });
  }
}
