/** GraphQL contract of rebuilding the search index on demand (workspace admins). */
export const reindexTypeDefs = /* GraphQL */ `
  extend type Query {
    "Where the workspace's latest full search reindex stands. Workspace admins only."
    searchReindex: SearchReindex!
  }

  extend type Mutation {
    "Rebuilds the workspace's search index from its research content; a reindex already under way is answered as it stands. Workspace admins only."
    reindexSearch: SearchReindex!
  }

  enum SearchReindexState {
    "The search engine reads the research tables themselves (PostgreSQL): there is no index to rebuild."
    NOT_NEEDED
    "No reindex was asked for yet."
    IDLE
    QUEUED
    RUNNING
    DONE
    FAILED
  }

  type SearchReindex {
    "The search engine in use: postgres or typesense."
    engine: String!
    state: SearchReindexState!
    "Items written to the index so far."
    processed: Int!
    "Items expected in all; 0 until the reindex has counted them."
    total: Int!
    queuedAt: DateTime
    startedAt: DateTime
    finishedAt: DateTime
    "Why the latest reindex failed."
    error: String
  }
`;
