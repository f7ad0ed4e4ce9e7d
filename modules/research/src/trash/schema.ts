/** GraphQL contract of the trash (002 §2 settings/trash). */
export const trashTypeDefs = /* GraphQL */ `
  extend type Query {
    "Manager and above: what is in the trash, most recently deleted first (at most 1000)."
    trash(type: TrashItemType): [TrashItem!]!
  }

  extend type Mutation {
    "Manager and above: brings an item back from the trash (a project with its notes, a folder with its folders)."
    restore(type: TrashItemType!, id: ID!): Boolean!
  }

  enum TrashItemType { PROJECT FOLDER NOTE INSIGHT HIGHLIGHT }

  type TrashItem {
    type: TrashItemType!
    id: ID!
    "The title (a highlight's text)."
    title: String!
    projectId: ID
    deletedAt: DateTime!
  }
`;
