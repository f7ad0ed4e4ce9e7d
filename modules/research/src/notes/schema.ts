/** GraphQL contract of notes (000 §3, §9; 002 §6). */
export const notesTypeDefs = /* GraphQL */ `
  extend type Query {
    "A project's notes, a page at a time (first: 1..200, default 50); search finds words in the title or text (at most 200 characters), tagIds keeps notes carrying any of those tags (at most 20)."
    notes(projectId: ID!, first: Int, after: String, orderBy: ContentOrder, archived: Boolean, search: String, tagIds: [ID!]): NoteConnection!
    note(id: ID!): Note!
  }

  extend type Mutation {
    createNote(input: CreateNoteInput!): Note!
    "A locked note can be edited (and unlocked) only by managers and admins."
    updateNote(id: ID!, input: UpdateNoteInput!): Note!
    moveNote(id: ID!, previousId: ID, nextId: ID): Note!
    "Manager and above: moves the note to the trash."
    deleteNote(id: ID!): Boolean!
  }

  "Project order, newest or oldest created, title A to Z, most recently updated."
  enum ContentOrder { RANK CREATED_DESC CREATED_ASC TITLE_ASC UPDATED_DESC }

  input CreateNoteInput {
    projectId: ID!
    "At most 200 characters."
    title: String
    "Rich text document (TipTap JSON), at most 5,000,000 characters serialised."
    content: JSON
    archived: Boolean
    locked: Boolean
  }

  input UpdateNoteInput {
    title: String
    content: JSON
    archived: Boolean
    locked: Boolean
  }

  type Note {
    id: ID!
    projectId: ID!
    project: Project!
    title: String!
    content: JSON
    "The plain text of the content; highlight offsets point into it."
    contentText: String!
    "The first 240 characters of contentText on one line, for lists."
    preview: String!
    "Tags as lists show them: a note's own tags, an insight's those of the highlights it cites."
    rowTags: [ProjectViewRowTag!]!
    "Highlights of a note; highlights an insight cites."
    highlightCount: Int!
    archived: Boolean!
    locked: Boolean!
    rank: Float!
    starred: Boolean!
    highlights: [Highlight!]!
    createdById: ID
    updatedById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
    deletedAt: DateTime
  }

  type NoteConnection {
    nodes: [Note!]!
    endCursor: String
    hasNextPage: Boolean!
  }
`;
