/** GraphQL contract of tag boards, tag groups, tags and highlight tagging (000 §3, 001 §3.8). */
export const tagsTypeDefs = /* GraphQL */ `
  extend type Query {
    "A project's tag boards, or the workspace's own boards when projectId is left out. includeWorkspace adds the workspace's boards to a project's."
    tagBoards(projectId: ID, includeWorkspace: Boolean): [TagBoard!]!
    "Every tag board the caller can read: the workspace's and those of readable projects."
    allTagBoards: [TagBoard!]!
    tagBoard(id: ID!): TagBoard!
    tagGroup(id: ID!): TagGroup!
    tag(id: ID!): Tag!
    "The tags on a highlight, in the order they were applied."
    highlightTags(highlightId: ID!): [Tag!]!
  }

  extend type Mutation {
    createTagBoard(input: CreateTagBoardInput!): TagBoard!
    updateTagBoard(input: UpdateTagBoardInput!): TagBoard!
    "Deletes a board with its groups and tags (managers)."
    deleteTagBoard(id: ID!): Boolean!
    createTagGroup(input: CreateTagGroupInput!): TagGroup!
    updateTagGroup(input: UpdateTagGroupInput!): TagGroup!
    moveTagGroup(input: MoveTagGroupInput!): TagGroup!
    "Deletes a group; its tags stay on the board, ungrouped (managers)."
    deleteTagGroup(id: ID!): Boolean!
    createTag(input: CreateTagInput!): Tag!
    updateTag(input: UpdateTagInput!): Tag!
    "Moves a tag into or out of a group, to another board, and between two neighbours."
    moveTag(input: MoveTagInput!): Tag!
    "Deletes a tag and takes it off every highlight (managers)."
    deleteTag(id: ID!): Boolean!
    "Moves every highlight tagged with a source to the target, then deletes the sources (managers)."
    mergeTags(sourceIds: [ID!]!, targetId: ID!): Tag!
    "Tags a highlight; answers all of its tags."
    tagHighlight(highlightId: ID!, tagIds: [ID!]!): [Tag!]!
    "Takes tags off a highlight; answers the tags it keeps."
    untagHighlight(highlightId: ID!, tagIds: [ID!]!): [Tag!]!
    "Tags a note; tags it already has stay. Answers all of the note's tags."
    tagNote(noteId: ID!, tagIds: [ID!]!): [Tag!]!
    "Takes tags off a note; answers the tags it keeps."
    untagNote(noteId: ID!, tagIds: [ID!]!): [Tag!]!
  }

  type TagBoard {
    id: ID!
    "Null for a workspace tag board."
    projectId: ID
    "1..50 characters."
    title: String!
    description: String
    rank: Float!
    groups: [TagGroup!]!
    "Every tag on the board, grouped or not."
    tags: [Tag!]!
    "The tags in no group."
    ungroupedTags: [Tag!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type TagGroup {
    id: ID!
    boardId: ID!
    "1..50 characters."
    title: String!
    "Six-digit hex, e.g. #3e63dd."
    color: String
    description: String
    rank: Float!
    tags: [Tag!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type Tag {
    id: ID!
    boardId: ID!
    groupId: ID
    "1..200 characters."
    title: String!
    "Six-digit hex, e.g. #3e63dd."
    color: String!
    "The colour highlights with this tag are painted in: the tag colour at alpha 0.2."
    highlightColor: String!
    description: String
    "A locked tag is renamed only by managers."
    locked: Boolean!
    rank: Float!
    "Highlights (out of the trash) with this tag."
    highlightCount: Int!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  input CreateTagBoardInput {
    "Leave out for a workspace tag board."
    projectId: ID
    title: String!
    description: String
  }

  input UpdateTagBoardInput {
    id: ID!
    title: String
    description: String
  }

  input CreateTagGroupInput {
    boardId: ID!
    title: String!
    "Hex colour; the 3-digit form is expanded to 6."
    color: String
    description: String
  }

  input UpdateTagGroupInput {
    id: ID!
    title: String
    color: String
    description: String
  }

  input MoveTagGroupInput {
    id: ID!
    previousId: ID
    nextId: ID
  }

  input CreateTagInput {
    boardId: ID!
    groupId: ID
    title: String!
    "Hex colour; the 3-digit form is expanded to 6. Defaults to a colour derived from the title."
    color: String
    description: String
    "Managers only."
    locked: Boolean
  }

  input UpdateTagInput {
    id: ID!
    title: String
    color: String
    description: String
    locked: Boolean
  }

  input MoveTagInput {
    id: ID!
    "Another board to move to; its project must fit the highlights the tag is on."
    boardId: ID
    "The group to move into; null takes the tag out of its group."
    groupId: ID
    "The tag that will come right before it."
    previousId: ID
    "The tag that will come right after it."
    nextId: ID
  }

  extend type Note {
    "The note's tags, in the order they were applied."
    tags: [Tag!]!
  }
`;
