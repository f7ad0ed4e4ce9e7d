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
    "A project: notes and insights added to it. An insight: its edits, once a day at most. A tag: each time it is applied to a highlight or note (on by default for tags)."
    allChangesEnabled: Boolean!
    "A project: insights published in it. An insight: when it is published. Not used for tags."
    insightsPublishedEnabled: Boolean!
    "A project: comments on its notes and insights. An insight: comments on it. A tag: comments on notes tagged with it."
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

  "One follow option as the follow menu names it for a kind of object."
  type FollowOption {
    "allChangesEnabled, insightsPublishedEnabled or allCommentsEnabled."
    key: String!
    label: String!
  }

  extend type Query {
    "The options that apply to following this kind of object, in the words to show."
    followOptions(objectType: FollowObjectType!): [FollowOption!]!
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
