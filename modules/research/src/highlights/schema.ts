/** GraphQL contract of highlights (000 §3; 002 §9). */
export const highlightsTypeDefs = /* GraphQL */ `
  extend type Query {
    "Highlights of one note (reading order) or one project (newest first, or oldest with orderBy CREATED_ASC); give exactly one of noteId and projectId. search finds words in the highlighted text (at most 200 characters); tagIds keeps highlights carrying any of those tags (at most 20)."
    highlights(noteId: ID, projectId: ID, first: Int, after: String, orderBy: ContentOrder, search: String, tagIds: [ID!]): HighlightConnection!
  }

  extend type Mutation {
    "Highlights contentText[startOffset, endOffset) of a note (UTF-16 offsets)."
    createHighlight(input: CreateHighlightInput!): Highlight!
    "Moves the highlight to the trash."
    deleteHighlight(id: ID!): Boolean!
    "Cites a highlight the caller can read as evidence of an insight they can edit; a highlight is cited by one insight at a time."
    citeHighlight(insightId: ID!, highlightId: ID!): Highlight!
    "Takes a citation off an insight; a highlight cited elsewhere is left as it is."
    unciteHighlight(insightId: ID!, highlightId: ID!): Highlight!
  }

  extend type Insight {
    "The highlights the insight cites that the caller can read, oldest citation first."
    highlights: [Highlight!]!
  }

  input CreateHighlightInput {
    noteId: ID!
    startOffset: Int!
    endOffset: Int!
    "Hex colour; 3 digits expand to 6."
    color: String
  }

  type Highlight {
    id: ID!
    projectId: ID!
    noteId: ID
    insightId: ID
    note: Note
    "The highlighted slice of the note's text."
    text: String!
    startOffset: Int!
    endOffset: Int!
    color: String
    "The colour to paint: rgba at an alpha of 0.2 (002 §9)."
    displayColor: String
    createdById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
    deletedAt: DateTime
  }

  type HighlightConnection {
    nodes: [Highlight!]!
    endCursor: String
    hasNextPage: Boolean!
  }
`;
