/** GraphQL contract of public share links (000 §1, §2, §3, §5, §9; 002 §5). */
export const sharingTypeDefs = /* GraphQL */ `
  extend type Query {
    "The live links of one object, newest first (Contributor and above who can read it); includeRevoked adds ended ones."
    shareLinks(objectType: ShareObjectType!, objectId: ID!, includeRevoked: Boolean): [ShareLink!]!
    """
    What a public link shows. Anonymous: send the link's token in the x-share-token header
    instead of a bearer token. NOT_FOUND once the link is revoked or public links are turned off.
    """
    sharedObject: SharedObject!
  }

  extend type Mutation {
    """
    Makes a public link to an object (Contributor and above who can read it; refused while the
    workspace has public links turned off). payload: the link's options, an object of at most 17000
    characters serialised; its sections list (README, INSIGHTS, HIGHLIGHTS...) limits what the link shows.
    """
    createShareLink(objectType: ShareObjectType!, objectId: ID!, payload: JSON): ShareLink!
    "Ends a link at once; revoking an ended link changes nothing."
    revokeShareLink(id: ID!): ShareLink!
  }

  "Share object types of 000 §3 that can be shared so far."
  enum ShareObjectType { insight note noteHighlight project projectReadme projectChart }

  type ShareLink {
    id: ID!
    "Exactly 12 letters or digits."
    token: String!
    "/p/{token}"
    path: String!
    url: String!
    objectType: ShareObjectType!
    objectId: ID!
    payload: JSON!
    createdById: ID
    createdAt: DateTime!
    revokedAt: DateTime
    "False once revoked. A live link still shows nothing while the workspace has public links turned off."
    active: Boolean!
  }

  type SharedObject {
    objectType: ShareObjectType!
    "The options the link was made with."
    payload: JSON!
    sharedAt: DateTime!
    object: PublicObject!
  }

  union PublicObject = PublicInsight | PublicNote | PublicHighlight | PublicProject | PublicProjectReadme | PublicProjectChart

  "A shared project chart: its options and figures."
  type PublicProjectChart {
    id: ID!
    title: String!
    metric: ChartMetric!
    groupBy: ChartGroupBy!
    type: ChartType!
    items: [ChartItem!]!
  }

  type PublicInsight {
    id: ID!
    title: String!
    content: JSON
    publishedAt: DateTime
    "The highlights of its own project it cites."
    highlights: [PublicHighlight!]!
  }

  type PublicNote {
    id: ID!
    title: String!
    content: JSON
    "The plain text the highlight offsets point into."
    contentText: String!
    highlights: [PublicHighlight!]!
  }

  type PublicHighlight {
    id: ID!
    text: String!
    startOffset: Int!
    endOffset: Int!
    color: String
    noteTitle: String
  }

  type PublicProject {
    id: ID!
    title: String!
    readme: JSON
    "Its published insights, newest first."
    insights: [PublicInsight!]!
  }

  type PublicProjectReadme {
    id: ID!
    title: String!
    readme: JSON
  }
`;
