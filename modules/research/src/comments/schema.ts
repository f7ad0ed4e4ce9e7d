/** GraphQL contract of comments on notes and insights, and of notification settings (002 §3). */
export const commentsTypeDefs = /* GraphQL */ `
  extend type Query {
    "An object's comments, oldest first (first: 1..200, default 50)."
    comments(objectType: CommentObjectType!, objectId: ID!, first: Int, after: String): CommentConnection!
    "The caller's notification settings in this workspace."
    notificationSettings: NotificationSettings!
  }

  extend type Mutation {
    """
    Comments on a note or insight the caller can read. Mention members as @[Name](userId) in the
    body: each must be a member who can read the object, and gets a mention notification; the
    object's authors and earlier commenters get a comment notification.
    """
    createComment(input: CreateCommentInput!): Comment!
    "The author only. Members mentioned for the first time are notified."
    updateComment(id: ID!, input: UpdateCommentInput!): Comment!
    "The author, or a manager or admin."
    deleteComment(id: ID!): Boolean!
    "Changes only the settings given."
    updateNotificationSettings(input: UpdateNotificationSettingsInput!): NotificationSettings!
  }

  enum CommentObjectType { NOTE INSIGHT }

  input CreateCommentInput {
    objectType: CommentObjectType!
    objectId: ID!
    "1..10,000 characters (trimmed)."
    body: String!
  }

  input UpdateCommentInput {
    "1..10,000 characters (trimmed)."
    body: String!
  }

  type Comment {
    id: ID!
    objectType: CommentObjectType!
    objectId: ID!
    projectId: ID!
    "With mentions as @[Name](userId)."
    body: String!
    "The body as people read it: mentions as @Name."
    text: String!
    mentions: [CommentMention!]!
    authorId: ID
    authorName: String
    canEdit: Boolean!
    canDelete: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
    "When the author last edited it; null if never."
    editedAt: DateTime
  }

  type CommentMention {
    userId: ID!
    "The member's current name."
    name: String!
  }

  type CommentConnection {
    nodes: [Comment!]!
    endCursor: String
    hasNextPage: Boolean!
  }

  type NotificationSettings {
    "Comments on notes and insights you wrote, edited or commented on (in-app and email). Mentions always arrive in-app."
    allCommentsEnabled: Boolean!
    allChangesEnabled: Boolean!
    insightsPublishedEnabled: Boolean!
    "No email for any notification; in-app notifications still arrive."
    emailNotificationsDisabled: Boolean!
  }

  input UpdateNotificationSettingsInput {
    allCommentsEnabled: Boolean
    allChangesEnabled: Boolean
    insightsPublishedEnabled: Boolean
    emailNotificationsDisabled: Boolean
  }
`;
