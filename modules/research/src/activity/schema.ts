/** GraphQL contract of recent work across projects (000 §2 /home, /recent, /your-work) and a tag's highlights (/tags/{tagId}). */
export const activityTypeDefs = /* GraphQL */ `
  extend type Query {
    "Notes in projects the caller can read, most recently updated first (first: 1..200, default 20); createdByMe keeps the caller's own."
    recentNotes(first: Int, createdByMe: Boolean): [Note!]!
    "Insights in projects the caller can read, most recently updated first (first: 1..200, default 20); published: true lists published insights, most recently published first."
    recentInsights(first: Int, createdByMe: Boolean, published: Boolean): [Insight!]!
    "Highlights with a tag, newest first, in projects the caller can read (first: 1..200, default 50)."
    tagHighlights(tagId: ID!, first: Int): [Highlight!]!
  }
`;
