/** GraphQL contract of people (contacts) and the notes and highlights about them (000 §2, §3, §9; 002 §6). */
export const peopleTypeDefs = /* GraphQL */ `
  extend type Query {
    "The workspace's people by name, a page at a time (first: 1..200, default 50). search matches part of a name or email."
    people(search: String, first: Int, after: String): PersonConnection!
    person(id: ID!): Person!
    "The notes about a person, newest first, in projects the caller can read."
    personNotes(personId: ID!, first: Int, after: String): NoteConnection!
    "The highlights about a person, newest first, in projects the caller can read."
    personHighlights(personId: ID!, first: Int, after: String): HighlightConnection!
  }

  extend type Mutation {
    "Contributor and above."
    createPerson(input: CreatePersonInput!): Person!
    "Contributor and above. A field left out is kept; null or blank clears it."
    updatePerson(id: ID!, input: UpdatePersonInput!): Person!
    "Manager and above: moves the person to the trash."
    deletePerson(id: ID!): Boolean!
    "Marks a note as being about a person (write access to the note's project)."
    addPersonToNote(noteId: ID!, personId: ID!): Note!
    removePersonFromNote(noteId: ID!, personId: ID!): Note!
    "Marks a highlight as being about a person (write access to its project)."
    addPersonToHighlight(highlightId: ID!, personId: ID!): Highlight!
    removePersonFromHighlight(highlightId: ID!, personId: ID!): Highlight!
  }

  input CreatePersonInput {
    "1..300 characters."
    name: String!
    "At most 320 characters; unique in the workspace whatever its case."
    email: String
    "At most 200 characters."
    company: String
    "Job title, at most 200 characters."
    title: String
    "An http(s) URL, at most 3000 characters."
    avatarUrl: String
  }

  input UpdatePersonInput {
    name: String
    email: String
    company: String
    title: String
    avatarUrl: String
  }

  type Person {
    id: ID!
    name: String!
    email: String
    company: String
    title: String
    avatarUrl: String
    createdById: ID
    updatedById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type PersonConnection {
    nodes: [Person!]!
    endCursor: String
    hasNextPage: Boolean!
  }

  extend type Note {
    "The people the note is about, by name."
    people: [Person!]!
  }

  extend type Highlight {
    "The people the highlight is about, by name."
    people: [Person!]!
  }
`;
