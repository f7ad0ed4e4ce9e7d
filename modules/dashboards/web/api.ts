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

export interface DashboardChart {
  id: string;
  kind: 'PROJECT_CHART' | 'CHANNEL';
  projectChartId: string | null;
  channelId: string | null;
  title: string | null;
  interval: 'DAY' | 'WEEK' | 'MONTH' | null;
  readable: boolean;
}

export interface Dashboard {
  id: string;
  title: string;
  canEdit: boolean;
  updatedAt: string;
  charts: DashboardChart[];
}

export const METRIC_LABELS: Record<ChartMetric, string> = { HIGHLIGHT_COUNT: 'Highlight count', NOTE_COUNT: 'Note count', TEXT_VOLUME: 'Text volume' };
export const GROUP_LABELS: Record<ChartGroupBy, string> = { TAG: 'Tag', TAG_GROUP: 'Tag group' };
export const TYPE_LABELS: Record<ChartType, string> = { BAR: 'Bar', RADAR: 'Radar', PIE: 'Pie', TREEMAP: 'Treemap' };

const CHART = 'id projectId projectTitle title metric groupBy type canEdit filter { collapsedGroupIds hiddenItemIds } items { id kind title color value }';
const DASHBOARD = 'id title canEdit updatedAt charts { id kind projectChartId channelId title interval readable }';

export const Q = {
  project: 'query($id: ID!) { project(id: $id) { id title myAccess { canEdit } } }',
  projectCharts: `query($p: ID!) { projectCharts(projectId: $p) { ${CHART} } }`,
  projectChart: `query($id: ID!) { projectChart(id: $id) { ${CHART} } }`,
  chartHighlights: 'query($id: ID!, $item: String!) { projectChartHighlights(id: $id, itemId: $item) { id text noteId noteTitle } }',
  createChart: `mutation($p: ID!, $input: CreateProjectChartInput!) { createProjectChart(projectId: $p, input: $input) { ${CHART} } }`,
  updateChart: `mutation($id: ID!, $input: UpdateProjectChartInput!) { updateProjectChart(id: $id, input: $input) { ${CHART} } }`,
  deleteChart: 'mutation($id: ID!) { deleteProjectChart(id: $id) }',
  tagBoards: 'query($p: ID) { tagBoards(projectId: $p, includeWorkspace: true) { id title groups { id title } tags { id title } } }',
  dashboards: `query { dashboards { ${DASHBOARD} } }`,
  dashboard: `query($id: ID!) { dashboard(id: $id) { ${DASHBOARD} } }`,
  createDashboard: `mutation($t: String!) { createDashboard(input: { title: $t }) { ${DASHBOARD} } }`,
  updateDashboard: `mutation($id: ID!, $t: String!) { updateDashboard(id: $id, input: { title: $t }) { ${DASHBOARD} } }`,
  deleteDashboard: 'mutation($id: ID!) { deleteDashboard(id: $id) }',
  addChart: 'mutation($d: ID!, $input: AddDashboardChartInput!) { addDashboardChart(dashboardId: $d, input: $input) { id } }',
  removeChart: 'mutation($id: ID!) { removeDashboardChart(id: $id) }',
  projects: 'query { projects { id title } }',
  channels: 'query { channels { id name } }',
  channelSeries: 'query($c: ID!, $i: ChannelInterval) { channelDataPointSeries(channelId: $c, interval: $i, aggregationPeriods: 1) { start count } }',
} as const;
