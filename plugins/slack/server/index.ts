import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { z } from 'zod';
import { slackMessages } from './import-source.ts';
import { slackOAuth } from './oauth.ts';
import { messageNote, replySaved, saveMessage, saveProject } from './save-message.ts';
import { botToken, slackClient } from './slack.ts';
import { answerChallenge, readDelivery, SAVE_CALLBACK_ID, slackEventId, slackTeamId, verifySlack } from './webhook.ts';

/** `sendToSlack`'s parameters, checked when an automation is saved. */
export const sendToSlackParameters = z.object({
  channelIds: z.array(z.string()).min(1).max(20),
  text: z.string().min(1).max(4000),
});

/**
 * Slack: people save messages to a research project with the "Save to Fieldbook" message
 * shortcut, and automations post to Slack channels.
 */
export default definePlugin({
  id: 'slack',
  name: 'Slack',
  version: '1.0.0',
  sdk: '^1',
  description:
    'Save Slack messages as notes, post to Slack channels from automations, and import channels’ messages as feedback.',
  permissions: ['notes:write', 'projects:read', 'egress:slack.com'],
  // Where web/index.tsx draws: the app loads the web part only on pages with one of these slots.
  web: { slots: ['project.settings.panel/v1', 'integration.settings.page/v1', 'note.toolbar.action/v1'] },
  config: {
    clientId: { env: 'SLACK_CLIENT_ID', description: 'Client ID of the Slack app', required: true },
    clientSecret: { env: 'SLACK_CLIENT_SECRET', description: 'Client secret of the Slack app', required: true },
    signingSecret: {
      env: 'SLACK_SIGNING_SECRET',
      description: 'Signing secret of the Slack app, to verify requests from Slack',
      required: true,
    },
    apiUrl: { env: 'SLACK_API_URL', description: 'Slack Web API root', default: 'https://slack.com/api', url: true },
    authorizeUrl: {
      env: 'SLACK_AUTHORIZE_URL',
      description: 'Slack OAuth consent page',
      default: 'https://slack.com/oauth/v2/authorize',
      url: true,
    },
  },
  settings: {
    projectId: { kind: 'project', label: 'Project for saved messages' },
  },
  server: {
    oauth: slackOAuth,
    // Import source SLACK (001 §3.4): the chosen channels' messages come into a channel as data points.
    importSources: [slackMessages],
    webhooks: [
      {
        path: '/slack/webhook',
        verify: (request, ctx) => verifySlack(request, ctx.config.signingSecret),
        respond: (request) => answerChallenge(request),
        eventId: slackEventId,
        externalId: slackTeamId,
        // Saved messages in batches: one isolate call works out a batch's notes (their permalinks
        // asked for together), the host makes them in one transaction, and then each person is told.
        async notesFor(ctx, events) {
          const saves = events.map((event) => {
            const delivery = readDelivery(event.body);
            return delivery?.kind === 'interaction' && delivery.action?.callback_id === SAVE_CALLBACK_ID
              ? delivery.action
              : null;
          });
          // Anything else, and saves with no project to go to, are handled one by one (`handle` answers those).
          const project = saves.some(Boolean) ? await saveProject(ctx) : null;
          if (!project) return events.map(() => null);
          return Promise.all(
            saves.map(async (action) =>
              action
                ? {
                    notes: [await messageNote(ctx, project, action)],
                    state: { responseUrl: action.response_url, projectTitle: project.title },
                  }
                : null,
            ),
          );
        },
        async notesMade(ctx, made) {
          await Promise.all(
            made.map(async ({ notes, state }) => {
              const { responseUrl, projectTitle } = (state ?? {}) as { responseUrl?: string; projectTitle?: string };
              if (!responseUrl || !notes[0]) return;
              try {
                await replySaved(ctx, responseUrl, projectTitle ?? '', notes[0]);
              } catch (err) {
                // The note is saved; a reply Slack refused (its response URL lasts 30 minutes) is only logged.
                ctx.log.warn('could not tell Slack where a saved message went', {
                  err: err instanceof Error ? err.message : String(err),
                });
              }
            }),
          );
        },
        async handle(ctx, event) {
          const delivery = readDelivery(event.body);
          if (delivery?.kind === 'interaction') {
            if (delivery.action?.callback_id === SAVE_CALLBACK_ID) await saveMessage(ctx, delivery.action);
            return;
          }
          if (delivery?.kind === 'event' && delivery.envelope.type === 'event_callback') {
            // The team removed the app or revoked its token: the connection is of no more use.
            if (delivery.envelope.event.type === 'app_uninstalled') await ctx.disconnect();
          }
        },
      },
    ],
    actions: [
      {
        key: 'sendToSlack',
        title: 'Send to Slack',
        description: 'Posts a message to one or more Slack channels.',
        parameters: sendToSlackParameters,
        async execute(ctx, params) {
          const token = botToken(ctx);
          if (!token) throw new Error('Slack is not connected to this workspace.');
          const client = slackClient(ctx);
          const failed: string[] = [];
          for (const channel of params.channelIds) {
            try {
              await client.postMessage(token, { channel, text: params.text });
            } catch (err) {
              ctx.log.warn('could not post to a Slack channel', {
                channel,
                err: err instanceof Error ? err.message : String(err),
              });
              failed.push(channel);
            }
          }
          if (failed.length)
            throw new Error(
              `Could not post to ${failed.length} of ${params.channelIds.length} Slack channels: ${failed.join(', ')}.`,
            );
          return {
            summary: `Posted to ${params.channelIds.length} Slack channel${params.channelIds.length === 1 ? '' : 's'}.`,
          };
        },
      },
    ],
  },
});
