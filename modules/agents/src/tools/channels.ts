import { z } from 'zod';
import type { AgentTool, AgentToolSource } from '@fieldbook/core';
import { defineTool } from './define.ts';

export const CHANNELS_UNAVAILABLE = 'Channels are not available in this workspace.';

const channelId = z.uuid({ error: 'channelId must be the id of a channel.' });
const themeId = z.uuid({ error: 'themeId must be the id of a theme.' });
const date = (field: string) =>
  z.iso.datetime({ error: `${field} must be a date and time (ISO 8601).`, offset: true }).optional();

/** The channel tools of 001 §3.3 as agents know them, when the channels module does not answer them. */
const FALLBACKS: ReadonlyArray<{ name: string; description: string; input: z.ZodObject }> = [
  {
    name: 'list_channels',
    description: 'Lists the channels of feedback: id and name.',
    input: z.object({ teamId: z.string().optional() }),
  },
  { name: 'list_themes', description: 'Lists the themes of a channel.', input: z.object({ channelId }) },
  { name: 'list_topics', description: 'Lists the topics of a channel.', input: z.object({ channelId }) },
  {
    name: 'list_channel_datums_by_theme',
    description: 'Lists data points of a channel in a theme: id, channelId, themeId, content, createdAt.',
    input: z.object({
      channelId,
      themeId,
      datumCount: z.number().int().min(1, 'datumCount: at least 1.').max(100, 'datumCount: at most 100.').default(10),
      from: date('from'),
      to: date('to'),
    }),
  },
  {
    name: 'datapoints_retrieval',
    description: 'Reads data points of a channel by their ids.',
    input: z.object({
      channelId,
      datapointIds: z
        .array(z.uuid({ error: 'datapointIds: each must be an id.' }))
        .min(1)
        .max(50),
    }),
  },
  {
    name: 'datum_search',
    description: 'Searches the data points of a channel.',
    input: z.object({ channelId, query: z.string().trim().min(1, 'query: write what to search for.').max(2000) }),
  },
  {
    name: 'summarize_themes',
    description: 'Summarizes the themes of a channel over a period.',
    input: z.object({ channelId, from: date('from'), to: date('to') }),
  },
];

export const CHANNEL_TOOL_NAMES = FALLBACKS.map((f) => f.name);

/**
 * The channel tools: the channels module's own when it is loaded and offers them; else tools of
 * the same names that check their input and answer plainly that channels are not available.
 */
export function channelTools(channels: Partial<AgentToolSource> | undefined): AgentTool[] {
  const own = channels?.agentTools?.() ?? [];
  const byName = new Map(own.map((t) => [t.name, t]));
  const fallbacks = FALLBACKS.filter((f) => !byName.has(f.name)).map((f) =>
    defineTool({
      name: f.name,
      description: f.description,
      access: 'read',
      input: f.input,
      run: async () => ({ text: CHANNELS_UNAVAILABLE }),
    }),
  );
  return [...own, ...fallbacks];
}
