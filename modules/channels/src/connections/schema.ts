/** GraphQL of source connections (001 §3.4): plugins' import sources connected to channels. */
export const connectionsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The import sources of the plugins installed in this workspace, with the settings each declares."
    channelPluginSources: [ChannelPluginSource!]!
    "A dataset's sync history: its runs, newest first (first: 1 to 100, default 20)."
    channelDatasetImports(datasetId: ID!, first: Int): [ChannelImport!]!
  }

  extend type Mutation {
    "Contributor and above: connects a plugin's import source to a channel and starts its first import."
    connectChannelSource(input: ConnectChannelSourceInput!): ChannelImport!
    "Contributor and above: syncs a source connection now, from where its last sync stopped."
    syncChannelDataset(id: ID!): ChannelImport!
    "Contributor and above: how often a source connection refreshes, in minutes (15 to 10080); null to refresh only on demand."
    setChannelDatasetRefresh(id: ID!, refreshMinutes: Int): ChannelDataset!
    "Contributor and above: changes a source connection's settings; its next sync reads again from the start of its first import period with them, updating what is already in."
    setChannelDatasetSettings(id: ID!, settings: JSON!): ChannelDataset!
  }

  input ConnectChannelSourceInput {
    channelId: ID!
    pluginId: String!
    "The source's kind, e.g. ZENDESK."
    kind: String!
    name: String
    "The source's payload fields (001 §3.4), e.g. { groups: [...], tags: [...] }."
    settings: JSON
    "Minutes between refreshes (15 to 10080); null or left out: only on demand."
    refreshMinutes: Int
    "How many days back the first import reaches (1 to 3650, default 30)."
    firstImportPeriodDays: Int
  }

  type ChannelPluginSource {
    pluginId: String!
    pluginName: String!
    kind: String!
    label: String!
    description: String
    settings: [ChannelSourceSetting!]!
  }

  extend type ChannelDataset {
    "The plugin of a source connection; null for CSV and API datasets."
    pluginId: String
    refreshMinutes: Int
    lastSyncedAt: DateTime
    nextSyncAt: DateTime
    "Its latest run."
    lastImport: ChannelImport
  }

  extend type ChannelImport {
    "What started it: UPLOAD, CONNECT, MANUAL (sync now) or SCHEDULED (a refresh)."
    trigger: String!
  }

  extend type ChannelSourceSetting {
    description: String
  }
`;
