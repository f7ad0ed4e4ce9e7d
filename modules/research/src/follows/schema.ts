/** GraphQL contract of following projects, insights and tags (000 §3 follow options). */
export const followsTypeDefs = /* GraphQL */ `
  enum FollowObjectType {
    PROJECT
    INSIGHT
    TAG
  }

  "How often followed activity is emailed as a digest."
  enum FollowFrequency {
    MONTHLY
    WEEKLY
    DAILY
  }

  type Follow {
    objectType: FollowObjectType!
    objectId: ID!
    objectTitle: String!
    frequency: FollowFrequency!
    "Every change to the object, besides comments and published insights."
    allChangesEnabled: Boolean!
    "Insights published in a followed project."
    insightsPublishedEnabled: Boolean!
    "Comments on the object (and, for a project, on its notes and insights)."
    allCommentsEnabled: Boolean!
    createdAt: DateTime!
  }

  input FollowInput {
    objectType: FollowObjectType!
    objectId: ID!
    frequency: FollowFrequency
    allChangesEnabled: Boolean
    insightsPublishedEnabled: Boolean
    allCommentsEnabled: Boolean
  }

  extend type Query {
    "The caller's follow of one object they can read, or null."
    follow(objectType: FollowObjectType!, objectId: ID!): Follow
    "Everything the caller follows in this workspace, newest first."
    follows: [Follow!]!
  }

  extend type Mutation {
    "Follows an object the caller can read, or changes the follow's options."
    followObject(input: FollowInput!): Follow!
    "Stops following; false when the caller did not follow it."
    unfollowObject(objectType: FollowObjectType!, objectId: ID!): Boolean!
  }
`;
