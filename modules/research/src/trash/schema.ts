/** GraphQL contract of the trash (002 §2 settings/trash). */
export const trashTypeDefs = /* GraphQL */ `
  extend type Query {
    "Manager and above: what is in the trash, most recently deleted first (at most 1000)."
    trash(type: TrashItemType): [TrashItem!]!
  }

  extend type Mutation {
    "Manager and above: brings an item back from the trash (a project with its notes, a folder with its folders, a person with their fields)."
    restore(type: TrashItemType!, id: ID!): Boolean!
  }

  enum TrashItemType { PROJECT FOLDER NOTE INSIGHT HIGHLIGHT PERSON }

  type TrashItem {
    type: TrashItemType!
    id: ID!
    "The title (a highlight's text, a person's name)."
    title: String!
    projectId: ID
    deletedAt: DateTime!
  }
`;
