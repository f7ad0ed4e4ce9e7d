/** GraphQL contract of channels (000 §2, §3; 001 §3.4). */
export const channelsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The workspace's channels by name; with trashed, those in the trash (manager and above)."
    channels(trashed: Boolean): [Channel!]!
    channel(id: ID!): Channel!
    "A channel's data points, newest first; from and to (ISO 8601) bound when the feedback was given; search keeps those whose text has every word of it (each word as the start of a word: tag finds tagging)."
    channelDataPoints(channelId: ID!, first: Int, after: String, search: String, from: String, to: String): ChannelDataPointConnection!
    channelDataPoint(id: ID!): ChannelDataPoint!
    "Data points over time: one bucket per aggregationPeriods intervals (1 to 5, default 2), oldest first."
    channelDataPointSeries(channelId: ID!, interval: ChannelInterval, aggregationPeriods: Int, from: String, to: String): [ChannelSeriesPoint!]!
    channelImport(id: ID!): ChannelImport!
    "A channel's imports, newest first."
    channelImports(channelId: ID!): [ChannelImport!]!
    "The import sources this installation offers, with the settings each declares."
    channelSources: [ChannelSource!]!
  }

  extend type Mutation {
    "Contributor and above. Refused past the workspace's maximumChannels."
    createChannel(input: CreateChannelInput!): Channel!
    updateChannel(id: ID!, input: UpdateChannelInput!): Channel!
    "Manager and above: moves the channel to the trash."
    deleteChannel(id: ID!): Boolean!
    "Manager and above: brings a channel back from the trash."
    restoreChannel(id: ID!): Channel!
  }

  input CreateChannelInput { name: String!, description: String }
  input UpdateChannelInput { name: String, description: String }

  enum ChannelInterval { DAY WEEK MONTH }
  enum ChannelImportStatus { QUEUED RUNNING COMPLETED FAILED }
  enum ChannelFieldType { ARR BOOLEAN CSAT DATETIME EMAIL NPS NUMBER PERSON PHONE RATING SELECT TEXT URL }
  enum ChannelSentiment { positive negative mixed }

  type Channel {
    id: ID!
    name: String!
    description: String
    dataPointCount: Int!
    "Data points per week over the last 12 weeks, oldest first."
    weeklyDataPoints: [Int!]!
    datasets: [ChannelDataset!]!
    fields: [ChannelField!]!
    createdAt: DateTime!
    updatedAt: DateTime!
    deletedAt: DateTime
  }

  type ChannelDataset {
    id: ID!
    source: String!
    name: String!
    settings: JSON!
    createdAt: DateTime!
  }

  type ChannelSelectOption { id: ID!, label: String! }

  type ChannelField {
    id: ID!
    label: String!
    type: ChannelFieldType!
    options: [ChannelSelectOption!]!
  }

  type ChannelFieldValue {
    field: ChannelField!
    "A string, or a boolean for BOOLEAN fields."
    value: JSON!
    "NPS fields: Detractor (0 to 6), Passive (7 to 8) or Promoter (9 to 10)."
    npsBand: String
  }

  type ChannelPersonRef { id: ID!, name: String!, email: String }

  type ChannelDataPoint {
    id: ID!
    channelId: ID!
    datasetId: ID!
    source: String!
    externalId: String!
    externalUrl: String
    importUrl: String
    content: String!
    createdAt: DateTime!
    "The ticket or conversation as the source gave it."
    raw: JSON
    person: ChannelPersonRef
    sentiment: ChannelSentiment
    fields: [ChannelFieldValue!]!
    importedAt: DateTime!
    updatedAt: DateTime!
  }

  type ChannelDataPointConnection {
    nodes: [ChannelDataPoint!]!
    endCursor: String
    hasNextPage: Boolean!
    totalCount: Int!
    "True when a text search matched more than 5,000 points: totalCount is then an estimate to two significant digits (about 410,000)."
    totalCountIsEstimate: Boolean!
  }

  type ChannelSeriesPoint { start: DateTime!, count: Int! }

  type ChannelImportFailure { line: Int, externalId: String, reason: String! }

  type ChannelImport {
    id: ID!
    channelId: ID!
    datasetId: ID!
    status: ChannelImportStatus!
    recordsRead: Int!
    recordsCreated: Int!
    recordsUpdated: Int!
    recordsSkipped: Int!
    recordsFailed: Int!
    "The first 1000 failed records with their line or external id and reason."
    failures: [ChannelImportFailure!]!
    error: String
    createdAt: DateTime!
    completedAt: DateTime
  }

  type ChannelSourceSetting { key: String!, label: String!, type: String!, required: Boolean! }
  type ChannelSource { kind: String!, label: String!, settings: [ChannelSourceSetting!]! }
`;
