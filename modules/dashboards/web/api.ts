/** The GraphQL operations of the chart and dashboard screens (research charts, dashboards module). */

export type ChartMetric = 'HIGHLIGHT_COUNT' | 'NOTE_COUNT' | 'TEXT_VOLUME';
export type ChartGroupBy = 'TAG' | 'TAG_GROUP';
export type ChartType = 'BAR' | 'RADAR' | 'PIE' | 'TREEMAP';

export interface ChartItem {
  id: string;
  kind: 'TAG' | 'TAG_GROUP' | 'UNGROUPED';
  title: string;
  color: string | null;
  value: number;
}

export interface ProjectChart {
  id: string;
  projectId: string;
  projectTitle: string;
  title: string;
  metric: ChartMetric;
  groupBy: ChartGroupBy;
  type: ChartType;
  canEdit: boolean;
  filter: { collapsedGroupIds: string[]; hiddenItemIds: string[] };
  items: ChartItem[];
}

export interface ChartHighlight {
  id: string;
  text: string;
  noteId: string | null;
  noteTitle: string | null;
}

export type ChannelInterval = 'DAY' | 'WEEK' | 'MONTH';
export type ChannelMeasure = 'OVER_TIME' | 'BY_THEME';
export type ChannelChartType = 'BAR' | 'LINE' | 'PIE';

/** A channel's data points by theme (the largest themes one by one, the rest in totals). */
export interface ChannelChartData {
  measure: ChannelMeasure;
  chartType: ChannelChartType;
  interval: ChannelInterval;
  total: number;
  themes: Array<{ id: string; title: string; count: number }>;
  series: Array<{ start: string; total: number; counts: number[] }>;
}

export interface DashboardChart {
  id: string;
  kind: 'PROJECT_CHART' | 'CHANNEL';
  projectChartId: string | null;
  channelId: string | null;
  title: string | null;
  interval: ChannelInterval | null;
  measure: ChannelMeasure | null;
  chartType: ChannelChartType | null;
  channelData: ChannelChartData | null;
  readable: boolean;
}

export const MEASURE_LABELS: Record<ChannelMeasure, string> = {
  OVER_TIME: 'Data points over time, by theme',
  BY_THEME: 'Data points per theme',
};
export const CHANNEL_TYPE_LABELS: Record<ChannelChartType, string> = { BAR: 'Bar', LINE: 'Line', PIE: 'Pie' };
/** How each measure may be drawn (the server refuses the others). */
export const CHANNEL_TYPES_OF: Record<ChannelMeasure, ChannelChartType[]> = {
  OVER_TIME: ['BAR', 'LINE'],
  BY_THEME: ['BAR', 'PIE'],
};

/** A shared chart or dashboard, as a public link shows it (figures only). */
export interface PublicChart {
  id: string;
  title: string;
  metric: ChartMetric;
  groupBy: ChartGroupBy;
  type: ChartType;
  items: ChartItem[];
}

export interface PublicDashboard {
  __typename: 'PublicDashboard';
  id: string;
  title: string;
  charts: Array<{
    id: string;
    kind: 'PROJECT_CHART' | 'CHANNEL';
    title: string;
    projectTitle: string | null;
    projectChart: PublicChart | null;
    channel: ChannelChartData | null;
  }>;
}

export interface SharedChartOrDashboard {
  objectType: string;
  sharedAt: string;
  object: PublicDashboard | ({ __typename: 'PublicProjectChart' } & PublicChart);
}

export interface Dashboard {
  id: string;
  title: string;
  canEdit: boolean;
  updatedAt: string;
  charts: DashboardChart[];
}

export const METRIC_LABELS: Record<ChartMetric, string> = {
  HIGHLIGHT_COUNT: 'Highlight count',
  NOTE_COUNT: 'Note count',
  TEXT_VOLUME: 'Text volume',
};
export const GROUP_LABELS: Record<ChartGroupBy, string> = { TAG: 'Tag', TAG_GROUP: 'Tag group' };
export const TYPE_LABELS: Record<ChartType, string> = { BAR: 'Bar', RADAR: 'Radar', PIE: 'Pie', TREEMAP: 'Treemap' };

const CHART =
  'id projectId projectTitle title metric groupBy type canEdit filter { collapsedGroupIds hiddenItemIds } items { id kind title color value }';
const CHANNEL_DATA = 'measure chartType interval total themes { id title count } series { start total counts }';
const DASHBOARD = `id title canEdit updatedAt charts { id kind projectChartId channelId title interval measure chartType readable channelData { ${CHANNEL_DATA} } }`;
const PUBLIC_CHART = 'id title metric groupBy type items { id kind title color value }';

export const Q = {
  project: 'query($id: ID!) { project(id: $id) { id title myAccess { canEdit } } }',
  projectCharts: `query($p: ID!) { projectCharts(projectId: $p) { ${CHART} } }`,
  projectChart: `query($id: ID!) { projectChart(id: $id) { ${CHART} } }`,
  chartHighlights:
    'query($id: ID!, $item: String!) { projectChartHighlights(id: $id, itemId: $item) { id text noteId noteTitle } }',
  createChart: `mutation($p: ID!, $input: CreateProjectChartInput!) { createProjectChart(projectId: $p, input: $input) { ${CHART} } }`,
  updateChart: `mutation($id: ID!, $input: UpdateProjectChartInput!) { updateProjectChart(id: $id, input: $input) { ${CHART} } }`,
  deleteChart: 'mutation($id: ID!) { deleteProjectChart(id: $id) }',
  tagBoards:
    'query($p: ID) { tagBoards(projectId: $p, includeWorkspace: true) { id title groups { id title } tags { id title } } }',
  dashboards: `query { dashboards { ${DASHBOARD} } }`,
  dashboard: `query($id: ID!) { dashboard(id: $id) { ${DASHBOARD} } }`,
  createDashboard: `mutation($t: String!) { createDashboard(input: { title: $t }) { ${DASHBOARD} } }`,
  updateDashboard: `mutation($id: ID!, $t: String!) { updateDashboard(id: $id, input: { title: $t }) { ${DASHBOARD} } }`,
  deleteDashboard: 'mutation($id: ID!) { deleteDashboard(id: $id) }',
  addChart:
    'mutation($d: ID!, $input: AddDashboardChartInput!) { addDashboardChart(dashboardId: $d, input: $input) { id } }',
  removeChart: 'mutation($id: ID!) { removeDashboardChart(id: $id) }',
  projects: 'query { projects { id title } }',
  channels: 'query { channels { id name } }',
  themePoints:
    'query($t: ID!) { channelThemeDataPoints(themeId: $t, first: 50) { totalCount nodes { id channelId content createdAt } } }',
  shared: `query { sharedObject { objectType sharedAt object { __typename ... on PublicProjectChart { ${PUBLIC_CHART} } ... on PublicDashboard { id title charts { id kind title projectTitle projectChart { ${PUBLIC_CHART} } channel { ${CHANNEL_DATA} } } } } } }`,
} as const;
