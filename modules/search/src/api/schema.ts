/** GraphQL contract of universal search (000 §3, §7, §9; 002 §5). */
export const searchTypeDefs = /* GraphQL */ `
  extend type Query {
    "Searches the workspace: hits of every result type the caller may read, with counts per type."
    search(input: SearchInput!): SearchResults!
  }

  enum SearchResultType {
    INSIGHT
    HIGHLIGHT
    TAG
    NOTE
    PROJECT
    CHANNEL
    THEME
    PERSON
    PROJECT_CATEGORY
    CHANNEL_DATAPOINT
  }

  enum SearchSortDirection {
    ASC
    DESC
  }

  input SearchSortInput {
    "Relevance, a system field such as Created or Title, or a custom field id."
    field: String!
    direction: SearchSortDirection
  }

  input SearchInput {
    "At most 2000 characters and 60 words; quoted phrases match exactly, the last word as a prefix."
    query: String
    resultType: SearchResultType
    resultTypes: [SearchResultType!]
    projectIds: [ID!]
    tagIds: [ID!]
    projectCategoryIds: [ID!]
    sort: [SearchSortInput!]
    "A filter form (combinator and forms), as an object or as JSON text."
    filter: JSON
    selectedFilterId: ID
    "0 to 1000; 100 when not given."
    limit: Int
    offset: Int
  }

  type SearchHit {
    type: SearchResultType!
    id: ID!
    title: String!
    "The matched text, HTML-escaped, matches wrapped in <mark>; null without a query."
    snippet: String
    projectId: ID
    projectTitle: String
    "The item the hit belongs under: a highlight's note; null for the others."
    parentId: ID
    score: Float!
    updatedAt: DateTime!
  }

  type SearchTypeCount {
    type: SearchResultType!
    count: Int!
    "True when the count is an estimate (large counts only), shown as about so many."
    isEstimate: Boolean!
  }

  type SearchResults {
    hits: [SearchHit!]!
    "Every hit of the search, whatever the limit and offset: the sum of countsByType."
    totalCount: Int!
    "True when some count of countsByType is an estimate, which makes totalCount one too."
    totalIsEstimate: Boolean!
    "Hits per result type searched, in the default result order."
    countsByType: [SearchTypeCount!]!
  }
`;
