/** GraphQL contract of dashboards (000 §2 /dashboards, 000 §9 dashboard title 300). */
export const dashboardsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The workspace's dashboards, most recently changed first."
    dashboards: [Dashboard!]!
    dashboard(id: ID!): Dashboard!
  }

  extend type Mutation {
    "Contributor and above; at most 200 dashboards per workspace."
    createDashboard(input: DashboardInput!): Dashboard!
    "Its creator, managers and workspace admins."
    updateDashboard(id: ID!, input: DashboardInput!): Dashboard!
    "Deletes the dashboard; the project charts and channels it shows stay."
    deleteDashboard(id: ID!): Boolean!
    "Adds a project chart or a channel's data points over time; at most 50 charts per dashboard."
    addDashboardChart(dashboardId: ID!, input: AddDashboardChartInput!): DashboardChart!
    removeDashboardChart(id: ID!): Boolean!
  }

  enum DashboardChartKind { PROJECT_CHART CHANNEL }
  enum DashboardInterval { DAY WEEK MONTH }

  input DashboardInput {
    "1..300 characters."
    title: String!
  }

  "Exactly one of projectChartId and channelId."
  input AddDashboardChartInput {
    projectChartId: ID
    channelId: ID
    "A channel chart's title, 1..300 characters; the channel's name when left out."
    title: String
    "A channel chart's buckets; WEEK when left out."
    interval: DashboardInterval
    "A channel chart's: data points over time by theme (OVER_TIME, the default) or the count by theme (BY_THEME)."
    measure: ChannelChartMeasure
    "A channel chart's drawing: BAR (default) or LINE over time, BAR or PIE by theme."
    chartType: ChannelChartType
  }

  type DashboardChart {
    id: ID!
    dashboardId: ID!
    kind: DashboardChartKind!
    "The project chart (PROJECT_CHART), when the caller may read it."
    projectChartId: ID
    "The channel (CHANNEL), when the caller may read it."
    channelId: ID
    "The chart's title, or the channel chart's; null when the caller may not read what it shows."
    title: String
    interval: DashboardInterval
    measure: ChannelChartMeasure
    chartType: ChannelChartType
    "A channel chart's figures, read with the caller's access; null for project charts and unreadable channels."
    channelData: ChannelChartData
    "False when the chart's project or channel is gone or hidden from the caller."
    readable: Boolean!
  }

  type Dashboard {
    id: ID!
    title: String!
    charts: [DashboardChart!]!
    "Whether the caller may rename, change or delete the dashboard."
    canEdit: Boolean!
    createdById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
  }
`;
