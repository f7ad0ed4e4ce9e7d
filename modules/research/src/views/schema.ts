/** GraphQL contract of project views and their canvas items (000 §3, 002 §2). */
export const viewsTypeDefs = /* GraphQL */ `
  extend type Query {
    "A project's views in rank order."
    projectViews(projectId: ID!): [ProjectView!]!
    projectView(id: ID!): ProjectView!
    "The view's notes, insights or highlights, filtered and sorted as it is saved; first is at most 1,000 (200 when left out)."
    projectViewRows(viewId: ID!, first: Int, after: String): ProjectViewRowPage!
  }

  extend type Mutation {
    "Contributor and above with write access to the project; at most 100 views per project."
    createProjectView(projectId: ID!, input: CreateProjectViewInput!): ProjectView!
    "Keys left out keep their value; null resets a setting."
    updateProjectView(id: ID!, input: UpdateProjectViewInput!): ProjectView!
    "Places a view between two neighbours in the project's view list."
    moveProjectView(id: ID!, previousId: ID, nextId: ID): ProjectView!
    "Deletes the view and its canvas items (the notes, insights and highlights stay)."
    deleteProjectView(id: ID!): Boolean!
    "Adds an item to a canvas view; at most 5,000 items per canvas."
    addCanvasItem(viewId: ID!, input: AddCanvasItemInput!): CanvasItem!
    "Moves, resizes, hides or edits an item; fields the item's kind does not have are refused."
    updateCanvasItem(id: ID!, input: UpdateCanvasItemInput!): CanvasItem!
    removeCanvasItem(id: ID!): Boolean!
  }

  enum ProjectViewLayout { BOARD CANVAS GRID LIST TABLE }
  enum ProjectViewObjectType { HIGHLIGHT INSIGHT NOTE }
  enum ViewGroupKind { SELECT PERSON PUBLISHED TAG }
  enum ViewSortDirection { ASC DESC }
  enum CanvasItemKind { RECTANGLE TEXT GROUP REFERENCE }
  enum CanvasTextFormat { PARAGRAPH H1 H2 H3 }
  enum CanvasPeekMode { Center Side FullPage }

  input ViewSortInput {
    "A system field (Title, Created, Tags, HighlightCount, PublishedAt...) or a custom field id such as field.<uuid>."
    field: String!
    direction: ViewSortDirection!
  }

  input ViewGroupInput {
    kind: ViewGroupKind!
    "The select or person field to group by (SELECT and PERSON only)."
    fieldId: ID
  }

  input ViewColumnInput {
    field: String!
    "40..2000 pixels; null for the default width."
    width: Float
    sticky: Boolean
    wrapped: Boolean
  }

  input CanvasPointInput { x: Float!, y: Float! }
  input CanvasObjectRankInput { objectId: ID!, rank: Float! }
  input CanvasSummaryInput { text: String!, peekMode: CanvasPeekMode }

  "Each key sent replaces that part of the canvas state."
  input ViewCanvasInput {
    stagingArea: CanvasPointInput
    objectRanks: [CanvasObjectRankInput!]
    expandedCardIds: [ID!]
    summary: CanvasSummaryInput
  }

  input CreateProjectViewInput {
    "1..200 characters."
    title: String!
    layout: ProjectViewLayout!
    objectType: ProjectViewObjectType!
    "At most 10 sort fields."
    sort: [ViewSortInput!]
    "A filter form (000 §3) as a JSON object or JSON text, at most 100,000 characters; stored as given."
    filter: JSON
    group: ViewGroupInput
    "At most 100 columns."
    columns: [ViewColumnInput!]
    "Fields hidden on cards and rows (field visibility)."
    hiddenFields: [String!]
    "Group values hidden from the view, at most 750."
    hiddenOptions: [String!]
    hideUncategorized: Boolean
    canvas: ViewCanvasInput
  }

  input UpdateProjectViewInput {
    title: String
    layout: ProjectViewLayout
    objectType: ProjectViewObjectType
    sort: [ViewSortInput!]
    filter: JSON
    group: ViewGroupInput
    columns: [ViewColumnInput!]
    hiddenFields: [String!]
    hiddenOptions: [String!]
    hideUncategorized: Boolean
    canvas: ViewCanvasInput
  }

  "x, y, width and height are finite; positions within ±1,000,000, sizes above 0 and at most 100,000."
  input AddCanvasItemInput {
    kind: CanvasItemKind!
    x: Float!
    y: Float!
    hidden: Boolean
    "RECTANGLE, TEXT and GROUP."
    width: Float
    height: Float
    "TEXT: at most 10,000 characters."
    text: String
    "TEXT; PARAGRAPH when left out."
    format: CanvasTextFormat
    "GROUP: at most 200 characters."
    title: String
    "GROUP: hex colour; 3 digits expand to 6."
    color: String
    "REFERENCE: a highlight, insight or note of the view's project; its width and height are optional (both or neither)."
    objectType: ProjectViewObjectType
    objectId: ID
  }

  input UpdateCanvasItemInput {
    x: Float
    y: Float
    hidden: Boolean
    width: Float
    height: Float
    text: String
    format: CanvasTextFormat
    title: String
    color: String
  }

  type ProjectView {
    id: ID!
    projectId: ID!
    project: Project!
    title: String!
    layout: ProjectViewLayout!
    objectType: ProjectViewObjectType!
    rank: Float!
    sort: [ViewSort!]!
    filter: JSON
    group: ViewGroup
    columns: [ViewColumn!]!
    hiddenFields: [String!]!
    hiddenOptions: [String!]!
    hideUncategorized: Boolean!
    canvas: ViewCanvas!
    "The canvas items, in drawing order; references to objects in the trash are left out."
    canvasItems: [CanvasItem!]!
    "Whether the caller may change, reorder or delete the view."
    canEdit: Boolean!
    createdById: ID
    updatedById: ID
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  "One note, insight or highlight of a view, with what its columns show."
  type ProjectViewRow {
    id: ID!
    objectType: ProjectViewObjectType!
    "A note's or insight's title; a highlight's text."
    title: String!
    createdAt: DateTime!
    updatedAt: DateTime!
    createdById: ID
    "Notes and insights: who created or last changed it."
    contributorIds: [ID!]!
    "Insights only."
    published: Boolean
    publishedAt: DateTime
    archived: Boolean
    locked: Boolean
    "Highlights: the note they are from."
    noteId: ID
    noteTitle: String
    color: String
    "Notes and insights: the first 240 characters of their text on one line."
    preview: String
    "Notes and insights: the first image, or a video's poster, in their content (web addresses only)."
    thumbnailUrl: String
    "The written summary of an insight, or the AI summary of a note or insight, cut to 400 characters."
    summary: String
    "Notes: their highlights; insights: the highlights they cite."
    highlightCount: Int
    "Notes: the insights citing their highlights."
    insights: [ProjectViewRowInsight!]!
    "A note's or highlight's tags; an insight's are those of the highlights it cites."
    tags: [ProjectViewRowTag!]!
    values: [ProjectViewRowValue!]!
  }
  type ProjectViewRowInsight { id: ID!, title: String! }
  type ProjectViewRowTag { id: ID!, title: String!, color: String! }
  type ProjectViewRowValue { fieldId: ID!, value: JSON! }
  type ProjectViewRowPage {
    rows: [ProjectViewRow!]!
    "Every row the view's filter keeps."
    totalCount: Int!
    endCursor: String
    hasNextPage: Boolean!
  }

  type ViewSort { field: String!, direction: ViewSortDirection! }
  type ViewGroup { kind: ViewGroupKind!, fieldId: ID }
  type ViewColumn { field: String!, width: Float, sticky: Boolean!, wrapped: Boolean! }
  type CanvasPoint { x: Float!, y: Float! }
  type CanvasObjectRank { objectId: ID!, rank: Float! }
  type CanvasSummary { text: String!, peekMode: CanvasPeekMode! }

  type ViewCanvas {
    stagingArea: CanvasPoint
    objectRanks: [CanvasObjectRank!]!
    expandedCardIds: [ID!]!
    summary: CanvasSummary
  }

  interface CanvasItem {
    id: ID!
    viewId: ID!
    kind: CanvasItemKind!
    x: Float!
    y: Float!
    hidden: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type CanvasRectangle implements CanvasItem {
    id: ID!
    viewId: ID!
    kind: CanvasItemKind!
    x: Float!
    y: Float!
    hidden: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
    width: Float!
    height: Float!
  }

  type CanvasText implements CanvasItem {
    id: ID!
    viewId: ID!
    kind: CanvasItemKind!
    x: Float!
    y: Float!
    hidden: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
    width: Float!
    height: Float!
    text: String!
    format: CanvasTextFormat!
  }

  type CanvasGroup implements CanvasItem {
    id: ID!
    viewId: ID!
    kind: CanvasItemKind!
    x: Float!
    y: Float!
    hidden: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
    width: Float!
    height: Float!
    title: String!
    color: String!
  }

  type CanvasReference implements CanvasItem {
    id: ID!
    viewId: ID!
    kind: CanvasItemKind!
    x: Float!
    y: Float!
    hidden: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
    "The card's size: 240 by 96 until it is resized."
    width: Float!
    height: Float!
    objectType: ProjectViewObjectType!
    objectId: ID!
  }
`;
