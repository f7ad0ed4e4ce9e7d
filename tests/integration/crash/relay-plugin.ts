import { createHmac } from 'node:crypto';
import { definePlugin } from '../../../extensions-sdk/src/server/index.ts';

export const RELAY_SECRET = 'crash-relay-signing-secret-123';

/** Signs like a simple provider: hex HMAC-SHA256 of the raw body. */
export const signRelay = (body: string) => ({ 'content-type': 'application/json', 'x-relay-signature': createHmac('sha256', RELAY_SECRET).update(body).digest('hex') });

/** A plugin whose signed webhook deliveries become notes, one per message id. */
export const relayPlugin = definePlugin({
  id: 'crash-relay',
  name: 'Crash relay',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['notes:write'],
  config: { signingSecret: { env: 'CRASH_RELAY_SECRET', description: 'Signing secret', required: true } },
  settings: { projectId: { kind: 'project', label: 'Project for messages', required: true } },
  server: {
    webhooks: [
      {
        path: '/crash-relay/webhook',
        verify: (req, ctx) => {
          const given = req.headers['x-relay-signature'];
          return given && given === createHmac('sha256', ctx.config.signingSecret).update(req.rawBody).digest('hex') ? { ok: true } : { ok: false, reason: 'bad signature' };
        },
        eventId: (req) => (JSON.parse(req.rawBody.toString()) as { id: string }).id,
        externalId: (req) => (JSON.parse(req.rawBody.toString()) as { account: string }).account,
        handle: async (ctx, event) => {
          const message = JSON.parse(event.body) as { id: string; text: string };
          await ctx.notes.create({ projectId: ctx.installation.settings.projectId!, title: message.text, text: message.text, key: `message:${message.id}` });
        },
      },
    ],
  },
});
