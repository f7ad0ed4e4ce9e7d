/** The GraphQL operations of the theme screens (modules/channels/src/themes/graphql.ts). */

export interface ThemeSummary {
  title: string;
  summary: string;
  datumCount: number;
  model: string | null;
  label: string;
  /** Read on the theme's own page only. */
  droppedQuotes?: number;
  provenance?: { label: string; endpointHost: string | null; inputCount: number; createdAt: string } | null;
}

export interface Theme {
  id: string;
  channelId: string;
  title: string;
  titleIsManual: boolean;
  phrases: string[];
  datumCount: number;
  retired: boolean;
  mergedInto: string | null;
  version: number;
  topic: { id: string; title: string } | null;
  summary: ThemeSummary | null;
}

export interface Topic {
  id: string;
  channelId: string;
  title: string;
  datumCount: number;
  themes: Theme[];
}

export interface Clustering {
  id: string;
  version: number;
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  progress: number;
  sensitivity: number;
  amount: number | null;
  representation: string | null;
  themeCount: number | null;
  outlierCount: number | null;
  pointCount: number | null;
  error: string | null;
  /** Running, but its server stopped answering: another takes the run over, or it fails. */
  takingOver: boolean;
  completedAt: string | null;
}

export interface PagePoint {
  id: string;
  content: string;
  createdAt: string;
  sentiment: string | null;
  person: { id: string; name: string } | null;
}

const THEME =
  'id channelId title titleIsManual phrases datumCount retired mergedInto version topic { id title } summary { title summary datumCount model label }';
/** A theme as its own page reads it: with its summary's dropped quotes and what made it. */
const THEME_PAGE = THEME.replace(
  'summary { title summary datumCount model label }',
  'summary { title summary datumCount model label droppedQuotes provenance { label endpointHost inputCount createdAt } }',
);
const SUMMARY =
  'title summary datumCount model label droppedQuotes provenance { label endpointHost inputCount createdAt }';
const CLUSTERING =
  'id version status progress sensitivity amount representation themeCount outlierCount pointCount error takingOver completedAt';
const PAGE_POINT = 'id content createdAt sentiment person { id name }';

export const TQ = {
  themes: `query ChannelThemes($channelId: ID!) { channelThemes(channelId: $channelId) { ${THEME} } }`,
  emerging: `query ChannelEmerging($channelId: ID!, $interval: ChannelInterval, $aggregationPeriods: Int) {
    channelEmergingThemes(channelId: $channelId, interval: $interval, aggregationPeriods: $aggregationPeriods) { theme { id } previousCount currentCount }
  }`,
  theme: `query ChannelTheme($id: ID!) { channelTheme(id: $id) { ${THEME_PAGE} } }`,
  topics: `query ChannelTopics($channelId: ID!) { channelTopics(channelId: $channelId) { id title datumCount themes { id title datumCount } } }`,
  topic: `query ChannelTopic($id: ID!) { channelTopic(id: $id) { id channelId title datumCount themes { ${THEME} } } }`,
  clustering: `query ChannelClustering($channelId: ID!) { channelClustering(channelId: $channelId) { ${CLUSTERING} } channelClusteringOptions { sensitivities { value label } amounts { value label } } }`,
  cluster: `mutation ClusterChannel($channelId: ID!, $sensitivity: Int, $amount: Int) { clusterChannel(channelId: $channelId, sensitivity: $sensitivity, amount: $amount) { ${CLUSTERING} } }`,
  themePoints: `query ThemePoints($themeId: ID!, $first: Int, $offset: Int) { channelThemeDataPoints(themeId: $themeId, first: $first, offset: $offset) { totalCount hasNextPage nodes { ${PAGE_POINT} } } }`,
  outliers: `query ChannelOutliers($channelId: ID!, $first: Int, $offset: Int) { channelOutliers(channelId: $channelId, first: $first, offset: $offset) { totalCount hasNextPage nodes { ${PAGE_POINT} } } }`,
  series: `query ThemeSeries($themeId: ID!, $interval: ChannelInterval, $aggregationPeriods: Int) { channelThemeSeries(themeId: $themeId, interval: $interval, aggregationPeriods: $aggregationPeriods) { start count } }`,
  rename: `mutation RenameTheme($id: ID!, $title: String!) { renameChannelTheme(id: $id, title: $title) { ${THEME} } }`,
  renameTopic: `mutation RenameTopic($id: ID!, $title: String!) { renameChannelTopic(id: $id, title: $title) { id title } }`,
  merge: `mutation MergeThemes($targetId: ID!, $sourceIds: [ID!]!) { mergeChannelThemes(targetId: $targetId, sourceIds: $sourceIds) { id } }`,
  split: `mutation SplitTheme($id: ID!) { splitChannelTheme(id: $id) { id title } }`,
  move: `mutation MovePoint($dataPointId: ID!, $themeId: ID) { moveChannelDataPoint(dataPointId: $dataPointId, themeId: $themeId) }`,
  summarize: `mutation SummarizeTheme($id: ID!) { summarizeChannelTheme(id: $id) { ${SUMMARY} } }`,
  pointTheme: `query PointTheme($id: ID!, $channelId: ID!) { channelDataPoint(id: $id) { id isOutlier theme { id title } } channelThemes(channelId: $channelId) { id title } }`,
};

export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
