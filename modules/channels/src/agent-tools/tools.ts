import { z } from 'zod';
import {
  validate,
  type AgentTool,
  type RequestContext,
  type ToolItem,
  type ToolJson,
  type ToolResult,
} from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema, listChannels } from '../channels/channels.ts';
import { listDataPoints } from '../datapoints/read.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { listThemes, listTopics, themeFor } from '../themes/read.ts';

/**
 * The channel agent tools (001 §3.3): agents and the MCP server read channels, themes, topics and
 * data points through them, each run as the member it acts for, so every read is checked as that
 * member's own request would be.
 */

const count = (what: string, fallback: number) =>
  z
    .number({ error: `${what} must be a whole number.` })
    .int(`${what} must be a whole number.`)
    .min(1, `${what} must be from 1 to ${CHANNEL_LIMITS.pageSize}.`)
    .max(CHANNEL_LIMITS.pageSize, `${what} must be from 1 to ${CHANNEL_LIMITS.pageSize}.`)
    .nullish()
    .transform((v) => v ?? fallback);

const iso = (what: string) => z.string().max(40, `${what} must be a date in ISO 8601 form.`).nullish();

const clip = (text: string, n = 400) => (text.length > n ? `${text.slice(0, n)}…` : text);
const pointUrl = (channelId: string, id: string) => `/channels/${channelId}/data/${id}`;

type PointOut = { id: string; channelId: string; themeId: string | null; content: string; createdAt: string };

function pointsResult(points: PointOut[], heading: string): ToolResult {
  const items: ToolItem[] = points.map((p) => ({
    type: 'CHANNEL_DATAPOINT',
    id: p.id,
    title: clip(p.content, 80),
    url: pointUrl(p.channelId, p.id),
    text: p.content,
  }));
  const text = points.length
    ? `${heading}\n${points.map((p) => `- [${p.id}] ${p.createdAt.slice(0, 10)}: ${clip(p.content)}`).join('\n')}`
    : `${heading}\nNone.`;
  return { text, items, data: points as unknown as ToolJson };
}

/** Data points of a theme between two dates, newest first. */
async function datumsByTheme(
  member: RequestContext,
  input: { channelId: string; themeId: string; datumCount: number; from?: string | null; to?: string | null },
): Promise<PointOut[]> {
  const caller = callerOf(member, CHANNEL_PERMISSIONS.read);
  return member.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    const theme = await themeFor(trx, caller, input.themeId);
    if (theme.channel_id !== input.channelId) return [];
    const q = trx('channel_theme_members as m')
      .join('channel_datapoints as d', 'd.id', 'm.datapoint_id')
      .where({ 'm.workspace_id': caller.workspaceId, 'm.theme_id': input.themeId })
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(input.datumCount);
    // Dates are checked by the same rules as the data point list's.
    if (input.from) q.where('d.created_at', '>=', new Date(input.from));
    if (input.to) q.where('d.created_at', '<=', new Date(input.to));
    const rows = (await q.select('d.id', 'd.channel_id', 'd.content', 'd.created_at')) as Array<{
      id: string;
      channel_id: string;
      content: string;
      created_at: Date;
    }>;
    return rows.map((r) => ({
      id: r.id,
      channelId: r.channel_id,
      themeId: input.themeId,
      content: r.content,
      createdAt: r.created_at.toISOString(),
    }));
  });
}

const dateOk = (s: string | null | undefined) => !s || !Number.isNaN(Date.parse(s));

export function channelAgentTools(): AgentTool[] {
  return [
    {
      name: 'list_channels',
      description:
        'Lists the workspace’s channels of customer feedback (support tickets, reviews, surveys): id and name.',
      inputSchema: {
        type: 'object',
        properties: {
          teamId: { type: 'string', description: 'Ignored: the workspace is the one the person acts in.' },
        },
      },
      access: 'read',
      async run(member) {
        const rows = await listChannels(member, {});
        const data = rows.map((c) => ({ id: c.id, name: c.name }));
        return {
          text: data.length ? data.map((c) => `- [${c.id}] ${c.name}`).join('\n') : 'No channels.',
          items: data.map((c) => ({ type: 'CHANNEL', id: c.id, title: c.name, url: `/channels/${c.id}` })),
          data,
        };
      },
    },
    {
      name: 'list_themes',
      description:
        'Lists the themes of a channel (groups of similar feedback), largest first: id, title, number of data points, topic.',
      inputSchema: {
        type: 'object',
        properties: { channelId: { type: 'string', description: 'The channel id.' } },
        required: ['channelId'],
        additionalProperties: false,
      },
      access: 'read',
      async run(member, input) {
        const { channelId } = validate(z.object({ channelId: idSchema('channelId') }), input);
        const themes = await listThemes(member, { channelId });
        const data = themes.map((t) => ({
          id: t.id,
          title: t.title,
          datumCount: t.datum_count ?? 0,
          topicId: t.topic_id,
        }));
        return {
          text: data.length
            ? data.map((t) => `- [${t.id}] ${t.title} (${t.datumCount} data points)`).join('\n')
            : 'This channel has no themes yet.',
          items: themes.map((t) => ({
            type: 'THEME',
            id: t.id,
            title: t.title,
            // No text: a theme's summary is a model's words, which no quote may be verified against.
            url: `/channels/${channelId}/themes/${t.id}`,
          })),
          data,
        };
      },
    },
    {
      name: 'list_topics',
      description: 'Lists the topics of a channel: each groups related themes.',
      inputSchema: {
        type: 'object',
        properties: { channelId: { type: 'string', description: 'The channel id.' } },
        required: ['channelId'],
        additionalProperties: false,
      },
      access: 'read',
      async run(member, input) {
        const { channelId } = validate(z.object({ channelId: idSchema('channelId') }), input);
        const topics = await listTopics(member, { channelId });
        const themes = await listThemes(member, { channelId });
        const data = topics.map((t) => ({
          id: t.id,
          title: t.title,
          themes: themes.filter((x) => x.topic_id === t.id).map((x) => ({ id: x.id, title: x.title })),
        }));
        return {
          text: data.length
            ? data.map((t) => `- [${t.id}] ${t.title}: ${t.themes.map((x) => x.title).join('; ')}`).join('\n')
            : 'This channel has no topics yet.',
          data,
        };
      },
    },
    {
      name: 'list_channel_datums_by_theme',
      description:
        'Lists data points of one theme, newest first, optionally between two dates: id, channelId, themeId, content, createdAt.',
      inputSchema: {
        type: 'object',
        properties: {
          channelId: { type: 'string' },
          themeId: { type: 'string' },
          datumCount: {
            type: 'integer',
            minimum: 1,
            maximum: CHANNEL_LIMITS.pageSize,
            default: CHANNEL_LIMITS.defaultDatumCount,
          },
          from: { type: 'string', description: 'ISO 8601 date' },
          to: { type: 'string', description: 'ISO 8601 date' },
        },
        required: ['channelId', 'themeId'],
        additionalProperties: false,
      },
      access: 'read',
      async run(member, input) {
        const args = validate(
          z.object({
            channelId: idSchema('channelId'),
            themeId: idSchema('themeId'),
            datumCount: count('datumCount', CHANNEL_LIMITS.defaultDatumCount),
            from: iso('from').refine(dateOk, 'from must be a date in ISO 8601 form.'),
            to: iso('to').refine(dateOk, 'to must be a date in ISO 8601 form.'),
          }),
          input,
        );
        return pointsResult(await datumsByTheme(member, args), `Data points of theme ${args.themeId}:`);
      },
    },
    {
      name: 'datapoints_retrieval',
      description: 'Retrieves a channel’s most recent data points (customer feedback), optionally between two dates.',
      inputSchema: {
        type: 'object',
        properties: {
          channelId: { type: 'string' },
          count: {
            type: 'integer',
            minimum: 1,
            maximum: CHANNEL_LIMITS.pageSize,
            default: CHANNEL_LIMITS.defaultDatumCount,
          },
          from: { type: 'string' },
          to: { type: 'string' },
        },
        required: ['channelId'],
        additionalProperties: false,
      },
      access: 'read',
      async run(member, input) {
        const args = validate(
          z.object({
            channelId: idSchema('channelId'),
            count: count('count', CHANNEL_LIMITS.defaultDatumCount),
            from: iso('from'),
            to: iso('to'),
          }),
          input,
        );
        const page = await listDataPoints(member, {
          channelId: args.channelId,
          first: args.count,
          from: args.from,
          to: args.to,
        });
        return pointsResult(
          page.nodes.map((d) => ({
            id: d.id,
            channelId: d.channel_id,
            themeId: null,
            content: d.content,
            createdAt: d.created_at.toISOString(),
          })),
          `${page.totalCount} data points; the newest:`,
        );
      },
    },
    {
      name: 'datum_search',
      description:
        'Searches the text of data points in every channel the person can read (or one channel), best matches first.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          channelId: { type: 'string' },
          count: {
            type: 'integer',
            minimum: 1,
            maximum: CHANNEL_LIMITS.pageSize,
            default: CHANNEL_LIMITS.defaultDatumCount,
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      access: 'read',
      async run(member, input) {
        const args = validate(
          z.object({
            query: z
              .string()
              .trim()
              .min(1, 'query must not be empty.')
              .max(2000, 'query can be at most 2000 characters long.'),
            channelId: idSchema('channelId').nullish(),
            count: count('count', CHANNEL_LIMITS.defaultDatumCount),
          }),
          input,
        );
        const caller = callerOf(member, CHANNEL_PERMISSIONS.read);
        const rows = await member.tx(async (trx) => {
          if (args.channelId) await channelFor(trx, caller, args.channelId);
          const q = trx('channel_datapoints as d')
            .join('channels as c', 'c.id', 'd.channel_id')
            .leftJoin('channel_theme_members as m', 'm.datapoint_id', 'd.id')
            .where('d.workspace_id', caller.workspaceId)
            .whereNull('c.deleted_at')
            .whereRaw("d.search_vector @@ websearch_to_tsquery('fb_search', ?)", [args.query])
            .orderByRaw("ts_rank(d.search_vector, websearch_to_tsquery('fb_search', ?)) desc, d.created_at desc", [
              args.query,
            ])
            .limit(args.count);
          if (args.channelId) q.where('d.channel_id', args.channelId);
          return (await q.select('d.id', 'd.channel_id', 'd.content', 'd.created_at', 'm.theme_id')) as Array<{
            id: string;
            channel_id: string;
            content: string;
            created_at: Date;
            theme_id: string | null;
          }>;
        });
        return pointsResult(
          rows.map((r) => ({
            id: r.id,
            channelId: r.channel_id,
            themeId: r.theme_id,
            content: r.content,
            createdAt: r.created_at.toISOString(),
          })),
          `Data points matching “${args.query}”:`,
        );
      },
    },
    {
      name: 'summarize_themes',
      description:
        'Summarizes a channel’s largest themes (or the themes named): title, summary and number of data points each, with example feedback.',
      inputSchema: {
        type: 'object',
        properties: {
          channelId: { type: 'string' },
          themeIds: { type: 'array', items: { type: 'string' } },
          count: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
        },
        required: ['channelId'],
        additionalProperties: false,
      },
      access: 'read',
      async run(member, input) {
        const args = validate(
          z.object({
            channelId: idSchema('channelId'),
            themeIds: z.array(idSchema('themeIds')).max(20, 'At most 20 themes (themeIds).').nullish(),
            count: z
              .number()
              .int()
              .min(1, 'count must be from 1 to 20.')
              .max(20, 'count must be from 1 to 20.')
              .nullish(),
          }),
          input,
        );
        const all = await listThemes(member, { channelId: args.channelId });
        const chosen = args.themeIds?.length
          ? all.filter((t) => args.themeIds!.includes(t.id))
          : all.slice(0, args.count ?? 5);
        const summaries = [];
        for (const t of chosen) {
          // A stored summary when one was written; else the theme's most central feedback, quoted.
          // Either way the feedback itself is what a quote in the agent's answer is checked against.
          const examples = await datumsByTheme(member, { channelId: args.channelId, themeId: t.id, datumCount: 3 });
          summaries.push({
            themeId: t.id,
            title: t.title,
            summary: t.summary ?? examples.map((e) => `“${clip(e.content, 200)}”`).join(' '),
            datumCount: t.datum_count ?? 0,
            said: examples.map((e) => e.content).join('\n'),
          });
        }
        return {
          text: summaries.length
            ? summaries.map((s) => `## ${s.title} (${s.datumCount} data points)\n${s.summary}`).join('\n\n')
            : 'This channel has no themes yet.',
          items: summaries.map((s) => ({
            type: 'THEME',
            id: s.themeId,
            title: s.title,
            url: `/channels/${args.channelId}/themes/${s.themeId}`,
            text: s.said,
          })),
          data: summaries.map(({ said: _said, ...s }) => s),
        };
      },
    },
  ];
}
