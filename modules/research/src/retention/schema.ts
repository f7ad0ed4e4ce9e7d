/** GraphQL contract of the workspace's data retention setting (002 §3, §9; route /settings/data-retention). */
export const retentionTypeDefs = /* GraphQL */ `
  extend type Query {
    "Workspace admins only."
    dataRetention: DataRetention!
  }

  extend type Mutation {
    "Workspace admins only: 30, 60, 90, 180 or 365 days, or null to turn data retention off."
    updateDataRetention(retentionDays: Int): DataRetention!
  }

  type DataRetention {
    "Null when retention is off."
    retentionDays: Int
    "The periods to choose from."
    options: [Int!]!
    "Admins are warned this many days before notes and insights are deleted."
    warningDays: Int!
    "The trash keeps an item this many days before deleting it for good."
    trashDays: Int!
    "The latest deletion warning under the current setting."
    latestWarning: DataRetentionWarning
    updatedAt: DateTime
    updatedById: ID
  }

  type DataRetentionWarning {
    id: ID!
    "When the announced notes and insights will be deleted."
    deleteAfter: DateTime!
    noteCount: Int!
    insightCount: Int!
    createdAt: DateTime!
  }
`;
