/** GraphQL contract of saved feeds (000 §2 /explore) and the search layout preference. */
export const feedsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The caller's own saved feeds and those shared with the workspace, in rank order."
    savedFeeds: [SavedFeed!]!
    "One saved feed: the caller's own, or one shared with the workspace."
    savedFeed(id: ID!): SavedFeed!
    "How the caller's search results are laid out; LIST until they choose."
    searchLayout: SearchLayout!
  }

  extend type Mutation {
    createSavedFeed(input: CreateSavedFeedInput!): SavedFeed!
    "Only the person who saved a feed changes it. Keys left out keep their value; null clears one."
    updateSavedFeed(id: ID!, input: UpdateSavedFeedInput!): SavedFeed!
    "The person who saved it, or a workspace admin for a shared feed."
    deleteSavedFeed(id: ID!): Boolean!
    "Remembers the caller's search layout in this workspace."
    setSearchLayout(layout: SearchLayout!): SearchLayout!
  }

  enum SearchLayout {
    GRID
    LIST
  }

  type SavedFeedAuthor {
    id: ID!
    name: String!
  }

  type SavedFeed {
    id: ID!
    "1..200 characters."
    title: String!
    "The search text; null for none."
    query: String
    "The filter form (000 §3), normalised: blank forms are dropped, null when none is left."
    filter: JSON
    "The result types searched; empty for every type."
    resultTypes: [SearchResultType!]!
    projectIds: [ID!]!
    projectCategoryIds: [ID!]!
    "Shared feeds are listed for the whole workspace."
    shared: Boolean!
    rank: Float!
    "Null once the person who saved it has left."
    createdBy: SavedFeedAuthor
    "Whether the caller saved it, and so may change it."
    isOwn: Boolean!
    "Whether the caller may delete it."
    canDelete: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  input CreateSavedFeedInput {
    "1..200 characters."
    title: String!
    "At most 2000 characters and 60 words."
    query: String
    "A filter form as an object or JSON text; a shared feed needs at least one condition with a value."
    filter: JSON
    resultTypes: [SearchResultType!]
    projectIds: [ID!]
    projectCategoryIds: [ID!]
    shared: Boolean
    "Where it sorts among the caller's feeds; after the last when left out."
    rank: Float
  }

  input UpdateSavedFeedInput {
    title: String
    query: String
    filter: JSON
    resultTypes: [SearchResultType!]
    projectIds: [ID!]
    projectCategoryIds: [ID!]
    shared: Boolean
    rank: Float
  }
`;
