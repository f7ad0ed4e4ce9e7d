import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { zoomOAuth } from './oauth.ts';
import { saveRecording } from './save-recording.ts';
import { answerValidation, readEvent, verifyZoom, zoomAccountId, zoomEventId } from './webhook.ts';

/**
 * Zoom: each cloud recording of the connected Zoom account becomes a note with its transcript,
 * one paragraph per speaker turn, in the project the workspace admins chose.
 */
export default definePlugin({
  id: 'zoom',
  name: 'Zoom',
  version: '1.0.0',
  sdk: '^1',
  description: 'Turn Zoom cloud recordings into notes with their transcripts.',
  // api.zoom.us and the hosts recordings download from (ssrweb.zoom.us, regional *.zoom.us) are subdomains.
  permissions: ['notes:write', 'projects:read', 'egress:zoom.us'],
  config: {
    clientId: { env: 'ZOOM_CLIENT_ID', description: 'Client ID of the Zoom OAuth app', required: true },
    clientSecret: { env: 'ZOOM_CLIENT_SECRET', description: 'Client secret of the Zoom OAuth app', required: true },
    webhookSecretToken: {
      env: 'ZOOM_WEBHOOK_SECRET_TOKEN',
      description: 'Secret token of the Zoom app, to verify event notifications',
      required: true,
    },
    apiUrl: { env: 'ZOOM_API_URL', description: 'Zoom REST API root', default: 'https://api.zoom.us/v2', url: true },
    oauthUrl: {
      env: 'ZOOM_OAUTH_URL',
      description: 'Zoom OAuth root (authorize and token)',
      default: 'https://zoom.us',
      url: true,
    },
  },
  settings: {
    projectId: { kind: 'project', label: 'Project for recordings', required: true },
  },
  server: {
    oauth: zoomOAuth,
    webhooks: [
      {
        path: '/zoom/event-notification',
        verify: (request, ctx) => verifyZoom(request, ctx.config.webhookSecretToken),
        respond: (request, ctx) => answerValidation(request, ctx.config.webhookSecretToken),
        eventId: zoomEventId,
        externalId: zoomAccountId,
        async handle(ctx, delivery) {
          const event = readEvent(delivery.body);
          if (event?.event === 'recording.completed') await saveRecording(ctx, event);
          // Some apps send deauthorization here rather than to /zoom/deauthorize.
          if (event?.event === 'app_deauthorized') await ctx.disconnect();
        },
      },
      {
        path: '/zoom/deauthorize',
        verify: (request, ctx) => verifyZoom(request, ctx.config.webhookSecretToken),
        respond: (request, ctx) => answerValidation(request, ctx.config.webhookSecretToken),
        eventId: zoomEventId,
        externalId: zoomAccountId,
        async handle(ctx, delivery) {
          // The account removed the app: its tokens are forgotten and its later events ignored.
          if (readEvent(delivery.body)?.event === 'app_deauthorized') await ctx.disconnect();
        },
      },
    ],
  },
});
