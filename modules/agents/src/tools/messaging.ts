import { z } from 'zod';
import type { ExtensionsServices, Mailer } from '@fieldbook/core';
import { memberOf } from './access.ts';
import { currentSources } from '../conversations/sources.ts';
import { defineTool, type Tool } from './define.ts';
import { emailRecipients, outsideRefusal } from './recipients.ts';

export const ASK_FOR_CONFIRMATION = 'askForConfirmation';
export const SLACK_NOT_INSTALLED =
  'Slack is not installed in this workspace, so no message was sent. A workspace admin can install it in Settings → Extensions.';

/** Tools that reach people: email to members of the workspace, Slack through its plugin, and asking the person. */
export function messagingTools(deps: { mailer: Mailer; host: ExtensionsServices['host'] }): Tool[] {
  return [
    defineTool({
      name: 'send_email',
      description:
        'Emails members of this workspace (by their email addresses). Only members who can open what this conversation read can be emailed; the person confirms first.',
      access: 'write',
      sendsOutside: true,
      input: z.object({
        to: z
          .array(z.email({ error: 'to: each recipient must be an email address.' }))
          .min(1, 'to: at least one recipient.')
          .max(20, 'to: at most 20 recipients.'),
        subject: z
          .string({ error: 'subject must be text.' })
          .trim()
          .min(1, 'subject: write a subject.')
          .max(200, 'subject: at most 200 characters.'),
        text: z
          .string({ error: 'text must be text.' })
          .min(1, 'text: write the message.')
          .max(20_000, 'text: at most 20,000 characters.'),
      }),
      async run(member, input) {
        // Only members, and only those who can open what the conversation read: checked again here,
        // as the mail goes, since access may have changed while the person was deciding.
        const { allowed, refused } = await emailRecipients(member, input.to, currentSources());
        const left = refused.map((r) => `${r.to} (${r.reason})`).join('; ');
        if (allowed.length === 0) return { text: `Nothing was sent: ${left}.` };
        const from = member.viewer?.name || member.viewer?.email || 'A member';
        for (const to of allowed)
          await deps.mailer.send({
            to,
            subject: input.subject,
            text: `${input.text}\n\n— Sent by an AI agent for ${from} in Fieldbook.`,
          });
        return {
          text: `Emailed ${allowed.length} ${allowed.length === 1 ? 'person' : 'people'}: ${allowed.join(', ')}.${left ? ` Not sent to ${left}.` : ''}`,
          data: { sent: allowed },
        };
      },
    }),
    defineTool({
      name: 'send_slack_notification',
      description:
        'Posts a message to Slack channels (by Slack channel id) through the Slack extension, when it is installed; the person confirms first.',
      access: 'write',
      sendsOutside: true,
      input: z.object({
        channelIds: z
          .array(z.string().trim().min(1, 'channelIds: each must be a Slack channel id.').max(40))
          .min(1, 'channelIds: at least one channel.')
          .max(10, 'channelIds: at most 10 channels.'),
        text: z
          .string({ error: 'text must be text.' })
          .min(1, 'text: write the message.')
          .max(4000, 'text: at most 4,000 characters.'),
      }),
      async run(member, input) {
        const m = memberOf(member);
        const closed = outsideRefusal(currentSources());
        if (closed) return { text: `Nothing was posted: ${closed}` };
        const ready = deps.host.catalog.ready('slack');
        if (!ready || !(await deps.host.isInstalled(m.workspaceId, 'slack'))) return { text: SLACK_NOT_INSTALLED };
        const result = await deps.host.runAction({
          pluginId: 'slack',
          workspaceId: m.workspaceId,
          key: 'sendToSlack',
          params: input,
          trigger: { event: 'agent', payload: { userId: m.userId } },
        });
        return {
          text:
            result?.summary ??
            `Posted to ${input.channelIds.length} Slack channel${input.channelIds.length === 1 ? '' : 's'}.`,
        };
      },
    }),
    defineTool({
      name: ASK_FOR_CONFIRMATION,
      description:
        'Asks the person a yes-or-no question and waits for their answer before going on (use before anything they may not want).',
      access: 'read',
      input: z.object({
        message: z
          .string({ error: 'message must be text.' })
          .trim()
          .min(1, 'message: write the question.')
          .max(2000, 'message: at most 2,000 characters.'),
      }),
      async run() {
        // In a conversation the run loop pauses on this tool; elsewhere (MCP) nobody is there to answer.
        return { text: 'Nobody can confirm outside a conversation: do not go on with what needed confirming.' };
      },
    }),
  ];
}
