/**
 * The channel view's state in the URL hash (000 §2): date range, preset, chart type (none, bar,
 * line) and filter. Dates that cannot stand are dropped together (000 §4): a missing from or to,
 * or a from after its to.
 */
export const CHART_TYPES = ['none', 'bar', 'line'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export const PRESETS = ['all', '1w', '4w', '3m', '1y', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

export const PRESET_LABELS: Record<Preset, string> = {
  all: 'All time',
  '1w': 'Last week',
  '4w': 'Last 4 weeks',
  '3m': 'Last 3 months',
  '1y': 'Last year',
  custom: 'Custom range',
};

export interface ChannelHashState {
  from: string | null;
  to: string | null;
  preset: Preset;
  chart: ChartType;
  filter: string;
}

export const DEFAULT_STATE: ChannelHashState = { from: null, to: null, preset: 'all', chart: 'bar', filter: '' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (s: string | null): s is string => !!s && DAY.test(s) && !Number.isNaN(Date.parse(s));

export function parseChannelHash(hash: string): ChannelHashState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const preset = params.get('preset');
  const chart = params.get('chart');
  let from = params.get('from');
  let to = params.get('to');
  if (!validDay(from) || !validDay(to) || Date.parse(from) > Date.parse(to)) {
    from = null;
    to = null;
  }
  const state: ChannelHashState = {
    from,
    to,
    preset: (PRESETS as readonly string[]).includes(preset ?? '') ? (preset as Preset) : DEFAULT_STATE.preset,
    chart: (CHART_TYPES as readonly string[]).includes(chart ?? '') ? (chart as ChartType) : DEFAULT_STATE.chart,
    filter: (params.get('filter') ?? '').slice(0, 2000),
  };
  // A custom range without its dates is all time.
  if (state.preset === 'custom' && !state.from) state.preset = 'all';
  return state;
}

export function formatChannelHash(state: ChannelHashState): string {
  const params = new URLSearchParams();
  if (state.preset !== 'all') params.set('preset', state.preset);
  if (state.from && state.to) {
    params.set('from', state.from);
    params.set('to', state.to);
  }
  if (state.chart !== DEFAULT_STATE.chart) params.set('chart', state.chart);
  if (state.filter.trim()) params.set('filter', state.filter);
  const text = params.toString();
  return text ? `#${text}` : '';
}

const iso = (d: Date): string => d.toISOString().slice(0, 10);

/** The dates a preset stands for, on `today`; a custom range keeps its own. */
export function rangeOf(state: ChannelHashState, today = new Date()): { from: string | null; to: string | null } {
  const back = (days: number) => ({ from: iso(new Date(today.getTime() - days * 86_400_000)), to: iso(today) });
  switch (state.preset) {
    case '1w':
      return back(7);
    case '4w':
      return back(28);
    case '3m':
      return back(91);
    case '1y':
      return back(365);
    case 'custom':
      return { from: state.from, to: state.to };
    default:
      return { from: null, to: null };
  }
}
