import type { Knex } from 'knex';
import { z } from 'zod';
import {
  authorizeSummary,
  provenanceLabel,
  readProvenance,
  recordProvenance,
  validate,
  verifyProse,
  verifyQuotes,
  type AiService,
  type RequestContext,
} from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { idSchema } from '../channels/channels.ts';
import { themeFor, type ThemeRow } from './read.ts';

/** A theme summary (001 §3.6): title, summary and how many data points it speaks for. */
export interface ThemeSummary {
  themeId: string;
  workspaceId: string;
  title: string;
  summary: string;
  datumCount: number;
  /** The model that wrote it, or null for a local (extractive) summary. */
  model: string | null;
  /** Quotes the model wrote (cited, or in quotation marks in its text) not found in the data points: never shown. */
  droppedQuotes: number;
}

/** What made a theme summary, as the theme page shows it. */
export interface ThemeSummaryProvenance {
  model: string;
  endpointHost: string | null;
  promptVersion: string;
  inputCount: number;
  promptTokens: number;
  completionTokens: number;
  createdAt: Date;
  local: boolean;
  label: string;
}

/** Points a summary reads: the closest to the theme's centre. */
const SUMMARY_POINTS = 30;
const PROMPT_VERSION = 'theme-summary-2';
/** Provenance counts its inputs by this name: "from 30 data points". */
const INPUT_TYPE = 'data point';

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
  // The points nearest the centre say what the theme is about; their first words suffice, cut at a word's end.
  const lines = points.slice(0, 3).map((p) => {
    const text = p.content.replace(/\s+/g, ' ').trim();
    const cut = text.length > 280 ? text.slice(0, 280).replace(/\s+\S*$/, '') : text;
    return `“${cut}”`;
  });
  return lines.join('\n');
}

export const themeSummaryOf = (t: ThemeRow): ThemeSummary | null =>
  t.summary
    ? {
        themeId: t.id,
        workspaceId: t.workspace_id,
        title: t.title,
        summary: t.summary,
        datumCount: t.datum_count ?? 0,
        model: t.summary_model,
        droppedQuotes: t.summary_dropped_quotes ?? 0,
      }
    : null;

/** The provenance recorded with a theme's summary; null for one written before provenance was kept. */
export async function themeSummaryProvenance(
  trx: Knex.Transaction,
  s: Pick<ThemeSummary, 'workspaceId' | 'themeId'>,
): Promise<ThemeSummaryProvenance | null> {
  const p = await readProvenance(trx, s.workspaceId, 'theme', s.themeId);
  if (!p) return null;
  return {
    model: p.model,
    endpointHost: p.endpointHost,
    promptVersion: p.promptVersion,
    inputCount: p.inputIds.length,
    promptTokens: p.promptTokens,
    completionTokens: p.completionTokens,
    createdAt: p.createdAt,
    local: p.model === 'local',
    label: provenanceLabel({ model: p.model, inputTypes: { [INPUT_TYPE]: p.inputIds.length } }),
  };
}

/**
 * Writes a theme's summary: with a model configured, from its most central points; otherwise
 * quoting those points. Every quote it shows, cited or written in quotation marks in its text,
 * is checked word for word against those points (what customers wrote, never a model's text):
 * one not found is removed and counted. Provenance is recorded either way.
 */
export async function summarizeTheme(ctx: RequestContext, ai: AiService, args: unknown): Promise<ThemeSummary> {
  // Viewers read theme summaries but never generate them (002 §6), as with notes' and insights'.
  authorizeSummary(ctx, CHANNEL_PERMISSIONS.read);
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
  const base = { themeId: id, workspaceId: caller.workspaceId, title: theme.title };
  if (!points.length)
    return { ...base, summary: 'Not enough content to summarize', datumCount: 0, model: null, droppedQuotes: 0 };
  const sources = points.map((p) => ({ id: p.id, text: p.content }));
  const local = verifyProse(extractive(points), sources);
  let summary = local.text;
  let dropped = local.dropped;
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
            'You summarize a theme of customer feedback. Answer JSON only: {"title": a short title, "summary": two or three sentences, "quotes": [{"id": data point id, "text": words copied exactly from it}]}. Use only the data points given. Any words in quotation marks, in the summary too, must be copied exactly from a data point; others are removed.',
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
      const prose = verifyProse(parsed.data.summary, sources);
      const quotes = verifyQuotes(
        parsed.data.quotes.map((q) => ({ sourceId: q.id, text: q.text })),
        new Map(points.map((p) => [p.id, p.content])),
      );
      summary = [prose.text, ...quotes.kept.map((q) => `“${q.text.trim()}”`)].join('\n');
      dropped = prose.dropped + quotes.dropped;
      model = res.model;
      usage = {
        promptTokens: res.promptTokens,
        completionTokens: res.completionTokens,
        endpointHost: res.endpointHost,
      };
    }
  }
  return ctx.tx(async (trx) => {
    await trx('channel_themes')
      .where({ id })
      .update({ summary, summary_model: model, summary_dropped_quotes: dropped, summarized_at: trx.fn.now() });
    await recordProvenance(trx, caller.workspaceId, {
      objectType: 'theme',
      objectId: id,
      model: model ?? 'local',
      endpointHost: usage.endpointHost,
      promptVersion: PROMPT_VERSION,
      inputIds: points.map((p) => p.id),
      inputTypes: { [INPUT_TYPE]: points.length },
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      createdBy: caller.userId,
    });
    return { ...base, summary, datumCount: theme.datum_count ?? 0, model, droppedQuotes: dropped };
  });
}
