/** GraphQL contract of folders (project categories, 000 §2, 002 §9). */
export const foldersTypeDefs = /* GraphQL */ `
  extend type Query {
    "Folders under parentId (top level when null) in rank order; all: true lists every folder."
    folders(parentId: ID, all: Boolean): [Folder!]!
    folder(id: ID!): Folder!
  }

  extend type Mutation {
    createFolder(title: String!, parentId: ID): Folder!
    renameFolder(id: ID!, title: String!): Folder!
    "Moves a folder under parentId (null: top level; omitted: same parent) between two neighbours."
    moveFolder(id: ID!, parentId: ID, previousId: ID, nextId: ID): Folder!
    "Manager and above: moves the folder and its folders to the trash."
    deleteFolder(id: ID!): Boolean!
  }

  type Folder {
    id: ID!
    title: String!
    parentId: ID
    parent: Folder
    rank: Float!
    "The folder path as shown (002 §9): names cut at 26 characters; past 3 segments first / ... / last."
    path: String!
    "The shown path's segments."
    pathSegments: [String!]!
    "Every folder name from the outermost down to this one, uncut."
    ancestry: [String!]!
    children: [Folder!]!
    "Projects in this folder the caller can read."
    projects: [Project!]!
    createdById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
    deletedAt: DateTime
  }
`;
