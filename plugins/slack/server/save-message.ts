import type { InstallationContext, NoteDraft, PluginNote } from '@fieldbook/extensions-sdk/server';
import { SlackApiError, type SlackMessageAction } from './api/index.ts';
import { botToken, slackClient } from './slack.ts';

export type SaveContext = InstallationContext<
  'notes:write' | 'projects:read',
  { projectId: { kind: 'project'; label: string } }
>;

/** The note's title: the message's first non-empty line, or where it was posted. */
export function titleOf(action: SlackMessageAction): string {
  const first = action.message.text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  return first ?? `Slack message in #${action.channel.name}`;
}

/** The project saved messages go to, when admins chose one and enabled the plugin there. */
export async function saveProject(ctx: SaveContext): Promise<{ id: string; title: string } | null> {
  const projectId = ctx.installation.settings.projectId;
  const project = projectId ? (await ctx.projects.list()).find((p) => p.id === projectId) : undefined;
  return project?.enabled ? project : null;
}

/** The note a saved message becomes: its text, who posted it where, and its link in Slack when Slack gives one. */
export async function messageNote(
  ctx: SaveContext,
  project: { id: string },
  action: SlackMessageAction,
): Promise<NoteDraft & { key: string }> {
  const token = botToken(ctx);
  let permalink: string | null = null;
  if (token) {
    try {
      permalink = await slackClient(ctx).getPermalink(token, action.channel.id, action.message.ts);
    } catch (err) {
      // The note is worth saving without its link (e.g. the bot is not in the channel).
      if (!(err instanceof SlackApiError)) throw err;
      ctx.log.warn('no permalink for a saved message', { code: err.code });
    }
  }
  const author = action.message.user
    ? `<@${action.message.user}>`
    : action.message.bot_id
      ? `bot ${action.message.bot_id}`
      : 'someone';
  const source = [`Posted by ${author} in #${action.channel.name}.`, permalink ? `Open in Slack: ${permalink}` : null]
    .filter(Boolean)
    .join('\n');
  return {
    projectId: project.id,
    title: titleOf(action),
    text: `${action.message.text}\n\n${source}`,
    key: `slack:${action.channel.id}:${action.message.ts}`,
  };
}

/** Tells the person who saved the message where its note is. */
export function replySaved(
  ctx: SaveContext,
  responseUrl: string,
  projectTitle: string,
  note: PluginNote & { created: boolean },
): Promise<unknown> {
  const link = `${ctx.publicUrl}${note.path}`;
  return slackClient(ctx).respond(responseUrl, {
    text: note.created
      ? `Saved to Fieldbook in ${projectTitle}: <${link}|${note.title}>`
      : `This message is already in Fieldbook: <${link}|${note.title}>`,
  });
}

/**
 * Saves the message a person chose "Save to Fieldbook" on as a note in the project the admins
 * picked, once per message (`slack:{channel}:{ts}`), and tells that person how it went.
 */
export async function saveMessage(ctx: SaveContext, action: SlackMessageAction): Promise<void> {
  const project = await saveProject(ctx);
  if (!project) {
    await slackClient(ctx).respond(action.response_url, {
      text: 'Fieldbook has no project to save messages to. Ask a workspace admin to choose one in the Slack plugin’s settings and enable the plugin on it.',
    });
    return;
  }
  const note = await ctx.notes.create(await messageNote(ctx, project, action));
  await replySaved(ctx, action.response_url, project.title, note);
}
