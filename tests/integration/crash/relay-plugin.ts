import { createHmac } from 'node:crypto';
import { definePlugin } from '../../../extensions-sdk/src/server/index.ts';

export const RELAY_SECRET = 'crash-relay-signing-secret-123';

/** Signs like a simple provider: hex HMAC-SHA256 of the raw body. */
export const signRelay = (body: string) => ({
  'content-type': 'application/json',
  'x-relay-signature': createHmac('sha256', RELAY_SECRET).update(body).digest('hex'),
});

/** A message's note: in the project it names (a test's way to make one fail), else the chosen one. */
function noteOf(chosen: string, body: string) {
  const message = JSON.parse(body) as { id: string; text: string; projectId?: string };
  return {
    projectId: message.projectId ?? chosen,
    title: message.text,
    text: message.text,
    key: `message:${message.id}`,
  };
}

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
          return given && given === createHmac('sha256', ctx.config.signingSecret).update(req.rawBody).digest('hex')
            ? { ok: true }
            : { ok: false, reason: 'bad signature' };
        },
        eventId: (req) => (JSON.parse(req.rawBody.toString()) as { id: string }).id,
        externalId: (req) => (JSON.parse(req.rawBody.toString()) as { account: string }).account,
        // Notes in batches (one transaction per batch), as Slack makes them; `handle` is what a
        // delivery falls back to alone when its batch fails.
        notesFor: async (ctx, events) =>
          events.map((event) => ({ notes: [noteOf(ctx.installation.settings.projectId!, event.body)] })),
        handle: async (ctx, event) => {
          await ctx.notes.create(noteOf(ctx.installation.settings.projectId!, event.body));
        },
      },
    ],
  },
});
