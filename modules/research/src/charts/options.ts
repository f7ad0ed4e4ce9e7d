import { z } from 'zod';
import { idSchema } from '../projects/inputs.ts';

/** Chart options of 000 §3 and the chart title length of 000 §9. */
export const CHART_METRICS = ['HIGHLIGHT_COUNT', 'NOTE_COUNT', 'TEXT_VOLUME'] as const;
export const CHART_GROUP_BY = ['TAG', 'TAG_GROUP'] as const;
export const CHART_TYPES = ['BAR', 'RADAR', 'PIE', 'TREEMAP'] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];
export type ChartGroupBy = (typeof CHART_GROUP_BY)[number];
export type ChartType = (typeof CHART_TYPES)[number];

export const CHART_LIMITS = {
  title: 300,
  /** Charts per project, so a project's chart list stays one page. */
  chartsPerProject: 100,
  /** Collapsed groups and hidden items in one filter (a project has at most this many tags in practice). */
  filterIds: 1000,
  /** Highlights listed behind one bar. */
  highlightsPage: 200,
} as const;

/** A title of 1..300 characters, trimmed (charts and dashboards share the limit). */
export const chartTitle = (label: 'chart' | 'dashboard') =>
  z
    .string({ error: `Give the ${label} a title.` })
    .trim()
    .min(1, `Give the ${label} a title.`)
    .max(CHART_LIMITS.title, `A ${label} title can be at most ${CHART_LIMITS.title} characters long.`);

const idList = (field: string) =>
  z
    .array(idSchema(`${field} entries`))
    .max(CHART_LIMITS.filterIds, `${field} can hold at most ${CHART_LIMITS.filterIds} ids.`);

export const chartFilterSchema = z.object({
  collapsedGroupIds: idList('filter.collapsedGroupIds').optional(),
  hiddenItemIds: idList('filter.hiddenItemIds').optional(),
});

export const metricSchema = z.enum(CHART_METRICS, { error: `metric is one of ${CHART_METRICS.join(', ')}.` });
export const groupBySchema = z.enum(CHART_GROUP_BY, { error: `groupBy is one of ${CHART_GROUP_BY.join(', ')}.` });
export const chartTypeSchema = z.enum(CHART_TYPES, { error: `type is one of ${CHART_TYPES.join(', ')}.` });
