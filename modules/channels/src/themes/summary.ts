import { z } from 'zod';
import { recordProvenance, validate, verifyQuotes, type AiService, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { idSchema } from '../channels/channels.ts';
import { themeFor, type ThemeRow } from './read.ts';

/** A theme summary (001 §3.6): title, summary and how many data points it speaks for. */
export interface ThemeSummary {
  title: string;
  summary: string;
  datumCount: number;
  /** The model that wrote it, or null for a local (extractive) summary. */
  model: string | null;
}

/** Points a summary reads: the closest to the theme's centre. */
const SUMMARY_POINTS = 30;
const PROMPT_VERSION = 'theme-summary-1';

export const LOCAL_SUMMARY_LABEL = 'Local summary (no AI model configured)';

const modelAnswer = z.object({
  title: z.string().min(1).max(300),
  summary: z.string().min(1).max(4000),
  quotes: z
    .array(z.object({ id: z.string(), text: z.string() }))
    .max(10)
    .default([]),
});

function extractive(points: ReadonlyArray<{ content: string }>): string {
  // The points nearest the centre say what the theme is about; their first sentences suffice.
  const lines = points.slice(0, 3).map((p) => `“${p.content.replace(/\s+/g, ' ').trim().slice(0, 280)}”`);
  return lines.join('\n');
}

export const themeSummaryOf = (t: ThemeRow): ThemeSummary | null =>
  t.summary ? { title: t.title, summary: t.summary, datumCount: t.datum_count ?? 0, model: t.summary_model } : null;

/**
 * Writes a theme's summary: with a model configured, from its most central points, quotes checked
 * word for word against them and provenance recorded; otherwise quoting those points.
 */
export async function summarizeTheme(ctx: RequestContext, ai: AiService, args: unknown): Promise<ThemeSummary> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  const { theme, points } = await ctx.tx(async (trx) => {
    const theme = await themeFor(trx, caller, id);
    const points = (await trx('channel_theme_members as m')
      .join('channel_datapoints as d', 'd.id', 'm.datapoint_id')
      .where({ 'm.theme_id': id })
      .orderByRaw('m.similarity desc nulls last, d.created_at desc')
      .limit(SUMMARY_POINTS)
      .select('d.id', 'd.content')) as Array<{ id: string; content: string }>;
    return { theme, points };
  });
  if (!points.length)
    return { title: theme.title, summary: 'Not enough content to summarize', datumCount: 0, model: null };
  let summary = extractive(points);
  let model: string | null = null;
  let usage = { promptTokens: 0, completionTokens: 0, endpointHost: null as string | null };
  if (ai.model) {
    const scope = { workspaceId: caller.workspaceId, userId: caller.userId, feature: 'summaries' as const };
    await ai.ensureAllowed(scope);
    const res = await ai.chat(scope, {
      temperature: 0.2,
      messages: [
        {
          role: 'system',
          content:
            'You summarize a theme of customer feedback. Answer JSON only: {"title": a short title, "summary": two or three sentences, "quotes": [{"id": data point id, "text": words copied exactly from it}]}. Use only the data points given.',
        },
        {
          role: 'user',
          content: `Theme: ${theme.title}\n\n${points.map((p) => `[${p.id}] ${p.content.slice(0, 1000)}`).join('\n')}`,
        },
      ],
    });
    let answer: unknown = null;
    try {
      answer = JSON.parse(res.text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
    } catch {
      // A model that does not answer JSON leaves the local summary in place.
    }
    const parsed = modelAnswer.safeParse(answer);
    if (parsed.success) {
      const { kept } = verifyQuotes(
        parsed.data.quotes.map((q) => ({ sourceId: q.id, text: q.text })),
        new Map(points.map((p) => [p.id, p.content])),
      );
      summary = [parsed.data.summary, ...kept.map((q) => `“${q.text}”`)].join('\n');
      model = res.model;
      usage = {
        promptTokens: res.promptTokens,
        completionTokens: res.completionTokens,
        endpointHost: res.endpointHost,
      };
    }
  }
  return ctx.tx(async (trx) => {
    await trx('channel_themes').where({ id }).update({ summary, summary_model: model, summarized_at: trx.fn.now() });
    await recordProvenance(trx, caller.workspaceId, {
      objectType: 'theme',
      objectId: id,
      model: model ?? 'local',
      endpointHost: usage.endpointHost,
      promptVersion: PROMPT_VERSION,
      inputIds: points.map((p) => p.id),
      inputTypes: { datapoint: points.length },
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      createdBy: caller.userId,
    });
    return { title: theme.title, summary, datumCount: theme.datum_count ?? 0, model };
  });
}
