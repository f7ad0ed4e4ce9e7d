import {
  defaultFilterForm,
  isUuid,
  parseFilter,
  SEARCH_RESULT_TYPES,
  type FilterForm,
  type SearchResultType,
} from '../src/filters/index.ts';

/**
 * What a search screen shows, kept in the URL hash (000 §2: search text, filter, folder and
 * project selection) so a link reproduces the search. The hash is base64url of compact JSON:
 * `q` text, `t` tab, `f` filter form, `p` project ids, `c` folder ids; empty parts left out.
 */
export interface SearchState {
  query: string;
  tab: TabKey;
  filter: FilterForm;
  projectIds: string[];
  projectCategoryIds: string[];
}

/**
 * The tabs of 000 §2 and the result types they show. Data and Notes name the same notes, and
 * Contacts and People the same people; the app calls them Notes and Contacts, so those are the
 * tabs. Channels, themes and data points are tabs once such results exist.
 */
export const TABS = [
  { key: 'everything', label: 'Everything', type: null },
  { key: 'contacts', label: 'Contacts', type: 'PERSON' },
  { key: 'folders', label: 'Folders', type: 'PROJECT_CATEGORY' },
  { key: 'projects', label: 'Projects', type: 'PROJECT' },
  { key: 'notes', label: 'Notes', type: 'NOTE' },
  { key: 'insights', label: 'Insights', type: 'INSIGHT' },
  { key: 'highlights', label: 'Highlights', type: 'HIGHLIGHT' },
  { key: 'tags', label: 'Tags', type: 'TAG' },
  { key: 'channels', label: 'Channels', type: 'CHANNEL' },
  { key: 'themes', label: 'Themes', type: 'THEME' },
  { key: 'datapoints', label: 'Data points', type: 'CHANNEL_DATAPOINT' },
] as const satisfies ReadonlyArray<{ key: string; label: string; type: SearchResultType | null }>;
export type TabKey = (typeof TABS)[number]['key'];
/** Shown only when the workspace has such results. */
export const OPTIONAL_TABS: readonly TabKey[] = ['channels', 'themes', 'datapoints'];
/** Older links name these tabs by their other names. */
const TAB_ALIASES: Record<string, TabKey> = { data: 'notes', people: 'contacts' };

export const tabOf = (key: TabKey) => TABS.find((t) => t.key === key)!;
export const tabForTypes = (types: readonly SearchResultType[]): TabKey =>
  types.length === 1 ? (TABS.find((t) => t.type === types[0])?.key ?? 'everything') : 'everything';

export const emptyState = (): SearchState => ({
  query: '',
  tab: 'everything',
  filter: defaultFilterForm(),
  projectIds: [],
  projectCategoryIds: [],
});

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The hash for a state, without the `#`; empty for the blank search. */
export function encodeState(state: SearchState): string {
  const compact: Record<string, unknown> = {};
  if (state.query) compact.q = state.query;
  if (state.tab !== 'everything') compact.t = state.tab;
  compact.f = { c: state.filter.combinator, f: state.filter.forms };
  if (state.projectIds.length) compact.p = state.projectIds;
  if (state.projectCategoryIds.length) compact.c = state.projectCategoryIds;
  return toBase64Url(JSON.stringify(compact));
}

const ids = (raw: unknown): string[] =>
  Array.isArray(raw) ? raw.filter((id): id is string => typeof id === 'string' && isUuid(id)) : [];

export interface DecodedState {
  state: SearchState;
  /** Set when the link held a filter this app cannot read; the rest of the link still applies. */
  problem: string | null;
}

/** Reads a hash (with or without `#`); null when there is none or it is not a search link. */
export function decodeState(hash: string): DecodedState | null {
  const text = hash.replace(/^#/, '');
  if (!text) return null;
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(fromBase64Url(text));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    raw = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const state = emptyState();
  let problem: string | null = null;
  if (typeof raw.q === 'string') state.query = raw.q;
  if (typeof raw.t === 'string') {
    const key = TAB_ALIASES[raw.t] ?? raw.t;
    if (TABS.some((t) => t.key === key)) state.tab = key as TabKey;
  }
  if (raw.f && typeof raw.f === 'object') {
    const f = raw.f as { c?: unknown; f?: unknown };
    try {
      state.filter = parseFilter({ combinator: f.c, forms: f.f }) ?? emptyState().filter;
    } catch (error) {
      problem = error instanceof Error ? error.message : 'The filter in this link could not be read.';
    }
  }
  state.projectIds = ids(raw.p);
  state.projectCategoryIds = ids(raw.c);
  return { state, problem };
}

/** The result types a tab searches: every type for Everything. */
export const resultTypesOf = (tab: TabKey): SearchResultType[] => {
  const type = tabOf(tab).type;
  return type ? [type] : [];
};

export const isResultType = (value: unknown): value is SearchResultType =>
  (SEARCH_RESULT_TYPES as readonly unknown[]).includes(value);
