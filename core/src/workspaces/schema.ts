/** GraphQL contract of workspaces, members, groups, invites and the audit log (002 §1, §3, §5, §6). */
export const workspacesTypeDefs = /* GraphQL */ `
  extend type Query {
    "The workspace the request addresses (subdomain or X-Fieldbook-Workspace header)."
    currentWorkspace: Workspace
    "The signed-in person's role and permissions in the current workspace."
    myMembership: Membership
    members(first: Int = 100, after: String, search: String): MemberConnection!
    userGroups: [UserGroup!]!
    invites: [Invite!]!
    "Looks up an invite by its link token, for the accept-invite screen."
    inviteByToken(token: String!): InvitePreview
    auditLog(first: Int = 50, after: String): AuditEntryConnection!
    "Suggests a subdomain for a workspace name (002 §5)."
    suggestSubdomain(name: String!): String
    regions: [Region!]!
    "The regions with where they are (002 §3 Regions); the default is US_B."
    regionOptions: [RegionOption!]!
  }

  extend type Mutation {
    createWorkspace(input: CreateWorkspaceInput!): CreateWorkspaceResult!
    updateWorkspace(input: UpdateWorkspaceInput!): Workspace!
    setAllowedDomains(domains: [String!]!): Workspace!
    joinWorkspaceByDomain(workspaceId: ID!): Membership!
    inviteMembers(input: InviteMembersInput!): [Invite!]!
    revokeInvite(id: ID!): Boolean!
    acceptInvite(token: String!): Membership!
    updateMemberRole(userId: ID!, role: ProductRole!, workspaceAdmin: Boolean!): Member!
    removeMember(userId: ID!): Boolean!
    createUserGroup(name: String!): UserGroup!
    renameUserGroup(id: ID!, name: String!): UserGroup!
    deleteUserGroup(id: ID!): Boolean!
    setUserGroupMembers(id: ID!, userIds: [ID!]!): UserGroup!
  }

  enum Region { US_A US_B EU_A AU_A }
  enum ProductRole { VIEWER CONTRIBUTOR MANAGER }
  enum Role { VIEWER CONTRIBUTOR MANAGER WORKSPACE_ADMIN }
  enum CreateWorkspaceMethod { AUTH0 OIDC EMAIL ONE_TIME_CODE }

  input CreateWorkspaceInput {
    method: CreateWorkspaceMethod!
    "The workspace name (team name), 1..200 characters."
    teamName: String!
    subdomain: String
    region: Region
    email: String
    password: String
    name: String
    installTemplateId: ID
    marketingCommsEnabled: Boolean
    promo: String
    orgSize: String
    jobRole: String
  }

  type CreateWorkspaceResult {
    workspace: Workspace!
    "The creator's membership: MANAGER with the workspace admin flag."
    membership: Membership!
    "The workspace app's home: its subdomain of PUBLIC_URL, or /team-redirect/{teamId}/home where subdomains are not available (localhost)."
    redirectUrl: String!
    healthCheckUrl: String!
  }

  type RegionOption {
    code: Region!
    cloudRegion: String!
    place: String!
    group: String!
  }

  input UpdateWorkspaceInput {
    name: String
    primaryColor: String
    logoUrl: String
    publicLinksDisabled: Boolean
  }

  type Workspace {
    id: ID!
    name: String!
    subdomain: String!
    region: Region!
    logoUrl: String
    primaryColor: String
    allowedDomains: [String!]!
    publicLinksDisabled: Boolean!
    memberCount: Int!
    createdAt: DateTime!
    url: String!
  }

  type Membership {
    workspace: Workspace!
    role: ProductRole!
    workspaceAdmin: Boolean!
    effectiveRole: Role!
    permissions: [String!]!
    "The user groups the person belongs to in this workspace."
    groupIds: [ID!]!
  }

  type Member {
    user: User!
    role: ProductRole!
    workspaceAdmin: Boolean!
    effectiveRole: Role!
    joinedAt: DateTime!
  }

  type MemberConnection {
    nodes: [Member!]!
    totalCount: Int!
    endCursor: String
  }

  type UserGroup {
    id: ID!
    name: String!
    members: [User!]!
    memberCount: Int!
  }

  input InviteMembersInput {
    emails: [String!]!
    role: ProductRole!
    workspaceAdmin: Boolean
    "At most 500 characters."
    message: String
  }

  type Invite {
    id: ID!
    email: String!
    role: ProductRole!
    workspaceAdmin: Boolean!
    message: String
    invitedBy: User
    createdAt: DateTime!
    expiresAt: DateTime!
    acceptedAt: DateTime
  }

  type InvitePreview {
    workspaceId: ID!
    workspaceName: String!
    workspaceSubdomain: String!
    email: String!
    invitedBy: String
    role: ProductRole!
    workspaceAdmin: Boolean!
    expired: Boolean!
    accepted: Boolean!
  }

  type AuditEntry {
    id: ID!
    kind: String!
    actor: User
    subjectType: String
    subjectId: String
    metadata: JSON!
    createdAt: DateTime!
  }

  type AuditEntryConnection {
    nodes: [AuditEntry!]!
    endCursor: String
  }
`;
