/** Search object types and their labels (000 §3). */
export const SEARCH_OBJECT_TYPES = [
  'CHANNEL',
  'CHANNEL_DATAPOINT',
  'HIGHLIGHT',
  'INSIGHT',
  'NOTE',
  'PERSON',
  'PROJECT',
  'PROJECT_CATEGORY',
  'TAG',
  'THEME',
] as const;
export type SearchObjectType = (typeof SEARCH_OBJECT_TYPES)[number];

export const SEARCH_OBJECT_LABELS: Readonly<Record<SearchObjectType, string>> = {
  CHANNEL: 'Channel',
  CHANNEL_DATAPOINT: 'Data point',
  HIGHLIGHT: 'Highlight',
  INSIGHT: 'Insight',
  NOTE: 'Note',
  PERSON: 'Person',
  PROJECT_CATEGORY: 'Folder',
  PROJECT: 'Project',
  TAG: 'Tag',
  THEME: 'Theme',
};

/**
 * The types a search compiles filters for (000 §7), in the default result order: insight,
 * highlight, tag, note, project, channel, theme, person, folder; data points, which that order
 * leaves out, come last (the Data points tab, 000 §2).
 */
export const SEARCH_RESULT_TYPES = [
  'INSIGHT',
  'HIGHLIGHT',
  'TAG',
  'NOTE',
  'PROJECT',
  'CHANNEL',
  'THEME',
  'PERSON',
  'PROJECT_CATEGORY',
  'CHANNEL_DATAPOINT',
] as const satisfies readonly SearchObjectType[];
export type SearchResultType = (typeof SEARCH_RESULT_TYPES)[number];

/** Result types a project scope leaves out (000 §7): they do not live inside projects. */
export const OUTSIDE_PROJECTS: readonly SearchResultType[] = [
  'PROJECT_CATEGORY',
  'CHANNEL',
  'THEME',
  'PERSON',
  'CHANNEL_DATAPOINT',
];
