/** GraphQL contract of insights: notes that can be published (000 §4; 002 §6). */
export const insightsTypeDefs = /* GraphQL */ `
  extend type Query {
    "A project's insights, a page at a time (first: 1..200, default 50)."
    insights(projectId: ID!, first: Int, after: String, orderBy: ContentOrder, archived: Boolean, published: Boolean, search: String, tagIds: [ID!]): InsightConnection!
    insight(id: ID!): Insight!
  }

  extend type Mutation {
    createInsight(input: CreateInsightInput!): Insight!
    updateInsight(id: ID!, input: UpdateInsightInput!): Insight!
    moveInsight(id: ID!, previousId: ID, nextId: ID): Insight!
    publishInsight(id: ID!): Insight!
    unpublishInsight(id: ID!): Insight!
    "Manager and above: moves the insight to the trash."
    deleteInsight(id: ID!): Boolean!
  }

  input CreateInsightInput {
    projectId: ID!
    title: String
    content: JSON
    summary: JSON
    archived: Boolean
    locked: Boolean
  }

  input UpdateInsightInput {
    title: String
    content: JSON
    summary: JSON
    archived: Boolean
    locked: Boolean
  }

  type Insight {
    id: ID!
    projectId: ID!
    project: Project!
    title: String!
    content: JSON
    contentText: String!
    "The first 240 characters of contentText on one line, for lists."
    preview: String!
    "Tags as lists show them: a note's own tags, an insight's those of the highlights it cites."
    rowTags: [ProjectViewRowTag!]!
    "Highlights of a note; highlights an insight cites."
    highlightCount: Int!
    summary: JSON
    archived: Boolean!
    locked: Boolean!
    published: Boolean!
    publishedAt: DateTime
    rank: Float!
    starred: Boolean!
    createdById: ID
    updatedById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
    deletedAt: DateTime
  }

  type InsightConnection {
    nodes: [Insight!]!
    endCursor: String
    hasNextPage: Boolean!
  }
`;
