import type Router from '@koa/router';
import type Koa from 'koa';
import type { WebhookRequest } from '@fieldbook/extensions-sdk/server';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { installations } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';
import { headersOf, readRaw, storedHeaders, verifyDelivery } from './intake.ts';
import type { DeliveryStore } from './store.ts';
import { hashWebhookKey, installationHookPath, looksLikeWebhookKey } from './keys.ts';

const MAX_EVENT_ID = 500;

/**
 * POST /hooks/{pluginId}/{key}: a delivery to one installation's own URL. The key alone finds the
 * installation (providers that cannot send custom headers work); then, in this order, the body's
 * size is bounded, the plugin verifies the signature with that installation's settings and
 * secrets, and only a verified delivery is stored, deduplicated on (installation, event id), and
 * queued, in one transaction. So an unverified request leaves nothing but a log line, and a forged
 * one carrying a genuine event id takes no place the genuine delivery then needs.
 */
async function receive(
  ctx: Koa.Context,
  host: PluginHost,
  deliveries: DeliveryStore,
  plugin: LoadedPlugin,
  key: string,
): Promise<void> {
  const { app, logger } = host.deps;
  const hook = plugin.definition.server.installationWebhook!;
  const found = looksLikeWebhookKey(key)
    ? ((
        await app.raw<{ rows: Array<{ id: string; workspace_id: string }> }>(
          'select id, workspace_id from plugin_installation_for_webhook_key(?, ?)',
          [plugin.id, hashWebhookKey(key)],
        )
      ).rows[0] ?? null)
    : null;
  if (!found) {
    ctx.status = 404;
    return;
  }
  const rawBody = await readRaw(ctx);
  if (!rawBody) {
    ctx.status = 413;
    ctx.body = { error: 'The request body is larger than webhooks may be (2 MB).' };
    return;
  }
  const row = await host.inWorkspace(found.workspace_id, (trx) => installations(trx).where({ id: found.id }).first());
  if (!row) {
    ctx.status = 404;
    return;
  }
  const request: WebhookRequest = { headers: headersOf(ctx), rawBody };
  const ictx = host.installationContext(plugin, row);
  if (!(await verifyDelivery(ctx, logger, { plugin: plugin.id, installation: row.id }, hook, request, ictx))) return;
  let eventId = '';
  let problem = 'none found';
  try {
    eventId = String(hook.eventId(request) ?? '').slice(0, MAX_EVENT_ID);
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  if (!eventId) {
    logger.warn(
      { plugin: plugin.id, installation: row.id, reason: problem },
      'webhook refused: the plugin found no event id in a verified delivery',
    );
    ctx.status = 400;
    ctx.body = { error: 'The delivery carries no event id.' };
    return;
  }
  // Stored and queued together; a repeat of the same event for this installation stops at the unique key.
  const queued = await deliveries.store(
    {
      plugin_id: plugin.id,
      scope: row.id,
      event_id: eventId,
      path: installationHookPath(plugin.id),
      headers: storedHeaders(request.headers),
      body: rawBody.toString('utf8'),
      installation_id: row.id,
    },
    { workspaceId: row.workspace_id, installationId: row.id, byAccount: false },
  );
  logger.debug({ plugin: plugin.id, installation: row.id, eventId, queued }, 'webhook received');
  ctx.status = 200;
  ctx.body = '';
}

/** Mounts installations' own webhook URLs; a plugin without an installation webhook, or not ready, answers 404. */
export function installationWebhookRoutes(router: Router, host: PluginHost, deliveries: DeliveryStore): void {
  router.post('/hooks/:pluginId/:key', async (ctx) => {
    const plugin = host.catalog.ready(ctx.params.pluginId!);
    if (!plugin?.definition.server.installationWebhook) {
      ctx.status = 404;
      return;
    }
    await receive(ctx, host, deliveries, plugin, ctx.params.key!);
  });
}
