/** GraphQL contract of projects and their access (000 §3, §6; 002 §6). */
export const projectsTypeDefs = /* GraphQL */ `
  extend type Query {
    "Projects the caller can read, in rank order; optionally of one status or one folder."
    projects(status: ProjectStatus, folderId: ID): [Project!]!
    project(id: ID!): Project!
  }

  extend type Mutation {
    "Contributor and above; at most 200 projects per workspace."
    createProject(input: CreateProjectInput!): Project!
    updateProject(id: ID!, input: UpdateProjectInput!): Project!
    "Places a project between two neighbours in the project list (drag and drop)."
    moveProject(id: ID!, previousId: ID, nextId: ID): Project!
    "Replaces the project's permission map: { groups: { public|markup|playback|<groupId>: level }, users: { <userId>: level } }."
    updateProjectAccess(projectId: ID!, permissions: JSON!): Project!
    "Manager and above: moves the project (with its notes, insights and highlights) to the trash."
    deleteProject(id: ID!): Boolean!
    "Stars or unstars a project, note or insight for the caller."
    setStarred(type: StarrableType!, id: ID!, starred: Boolean!): Boolean!
  }

  enum ProjectStatus { ACTIVE ARCHIVED COMPLETED }
  enum ProjectSection { CHARTS HIGHLIGHTS INSIGHTS NOTES README TAGS }
  enum StarrableType { PROJECT NOTE INSIGHT }
  "A permission level on one object (000 §6)."
  enum ObjectPermissionLevel { none read write full }
  enum ObjectAccessRole { MANAGER CONTRIBUTOR VIEWER }

  input CreateProjectInput {
    "1..200 characters."
    title: String!
    status: ProjectStatus
    "Hex colour; 3 digits expand to 6."
    color: String
    icon: String
    "Rich text document, at most 5,000,000 characters serialised."
    readme: JSON
    enabledSections: [ProjectSection!]
    folderId: ID
  }

  input UpdateProjectInput {
    title: String
    status: ProjectStatus
    color: String
    icon: String
    readme: JSON
    enabledSections: [ProjectSection!]
    "Null takes the project out of its folder."
    folderId: ID
  }

  type Project {
    id: ID!
    title: String!
    status: ProjectStatus!
    color: String
    icon: String
    readme: JSON
    enabledSections: [ProjectSection!]!
    rank: Float!
    folderId: ID
    folder: Folder
    "The permission map (000 §6)."
    permissions: JSON!
    myAccess: ProjectAccess!
    starred: Boolean!
    createdById: ID
    updatedById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
    deletedAt: DateTime
  }

  type ProjectAccess {
    level: ObjectPermissionLevel!
    "MANAGER for workspace managers and admins; otherwise from the level (write/full CONTRIBUTOR, read VIEWER)."
    accessRole: ObjectAccessRole
    canEdit: Boolean!
    canManageAccess: Boolean!
    canDelete: Boolean!
    "True when the map sets the workspace-wide (markup) level, so only grants open it up."
    restricted: Boolean!
  }
`;
