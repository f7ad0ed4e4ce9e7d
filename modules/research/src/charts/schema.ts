/** GraphQL contract of project charts (000 §2 /projects/{id}/charts, 000 §3 chart options). */
export const chartsTypeDefs = /* GraphQL */ `
  extend type Query {
    "A project's charts, oldest first."
    projectCharts(projectId: ID!): [ProjectChart!]!
    projectChart(id: ID!): ProjectChart!
    "The highlights behind one item of a chart (a tag, a tag group or ungrouped), newest first, at most 200."
    projectChartHighlights(id: ID!, itemId: String!): [ChartHighlight!]!
  }

  extend type Mutation {
    "Contributor and above with write access to the project; at most 100 charts per project."
    createProjectChart(projectId: ID!, input: CreateProjectChartInput!): ProjectChart!
    "Keys left out keep their value; a filter of null shows every item again."
    updateProjectChart(id: ID!, input: UpdateProjectChartInput!): ProjectChart!
    "Deletes the chart; dashboards showing it lose it."
    deleteProjectChart(id: ID!): Boolean!
  }

  enum ChartMetric { HIGHLIGHT_COUNT NOTE_COUNT TEXT_VOLUME }
  enum ChartGroupBy { TAG TAG_GROUP }
  enum ChartType { BAR RADAR PIE TREEMAP }
  enum ChartItemKind { TAG TAG_GROUP UNGROUPED }

  input ChartFilterInput {
    "Tag groups whose tags are drawn as one item (tag charts)."
    collapsedGroupIds: [ID!]
    "Tags or tag groups left out of the chart."
    hiddenItemIds: [ID!]
  }

  input CreateProjectChartInput {
    "1..300 characters."
    title: String!
    metric: ChartMetric!
    groupBy: ChartGroupBy!
    type: ChartType!
    filter: ChartFilterInput
  }

  input UpdateProjectChartInput {
    title: String
    metric: ChartMetric
    groupBy: ChartGroupBy
    type: ChartType
    filter: ChartFilterInput
  }

  type ChartFilter { collapsedGroupIds: [ID!]!, hiddenItemIds: [ID!]! }

  "One bar, slice or cell: a tag, a tag group (collapsed, or in tag-group charts) or the tags without a group."
  type ChartItem { id: String!, kind: ChartItemKind!, title: String!, color: String, value: Int! }

  type ChartHighlight { id: ID!, text: String!, noteId: ID, noteTitle: String, projectId: ID!, createdAt: DateTime! }

  type ProjectChart {
    id: ID!
    projectId: ID!
    projectTitle: String!
    title: String!
    metric: ChartMetric!
    groupBy: ChartGroupBy!
    type: ChartType!
    filter: ChartFilter!
    "The chart's items, largest first, hidden items left out."
    items: [ChartItem!]!
    "Whether the caller may change or delete the chart."
    canEdit: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
`;
