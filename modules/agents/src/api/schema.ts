export const agentsTypeDefs = /* GraphQL */ `
  extend type Query {
    "The workspace's agents, by name."
    agents: [Agent!]!
    agent(id: ID!): Agent!
    "The caller's own conversations, newest first; with agentId, those with that agent."
    agentConversations(agentId: ID): [AgentConversation!]!
    agentConversation(id: ID!): AgentConversation!
    "The caller's conversations matching a text and the filter objects of 001 §3.3."
    searchConversations(input: SearchConversationsInput!): [AgentConversation!]!
  }
  extend type Mutation {
    "Anyone but viewers. Name 1 to 255 characters; tools chosen from agentTools."
    createAgent(input: CreateAgentInput!): Agent!
    "Its creator and workspace admins."
    updateAgent(id: ID!, input: UpdateAgentInput!): Agent!
    "Its creator and workspace admins; its conversations go with it."
    deleteAgent(id: ID!): Boolean!
    "Title up to 500 characters (default: the agent's name)."
    startConversation(input: StartConversationInput!): AgentConversation!
    renameConversation(id: ID!, title: String!): AgentConversation!
    deleteConversation(id: ID!): Boolean!
    "Sends a message and waits for the agent's turn to end (POST /api/agents/conversations/{id}/messages streams it instead)."
    sendAgentMessage(conversationId: ID!, text: String!): AgentConversation!
    "Answers the question the conversation paused on; the turn goes on."
    answerAgentConfirmation(conversationId: ID!, confirmed: Boolean!): AgentConversation!
    "Good or Bad on one of the agent's answers; null takes the rating back."
    rateMessage(messageId: ID!, rating: AgentResponseRating): AgentMessage!
  }
  enum AgentResponseRating {
    Good
    Bad
  }
  enum AgentMessageType {
    ASSISTANT
    RESULT
    THINKING
    USER
  }
  enum AgentConversationStatus {
    IDLE
    RUNNING
    AWAITING_CONFIRMATION
  }
  enum ConversationFilterType {
    ProjectCategory
    Project
    Channel
    Note
    Insight
    Tag
    Chart
    MultiSelect
  }
  input CreateAgentInput {
    name: String!
    instructions: String
    "A model of the configured endpoint; empty for the workspace's chat model."
    model: String
    tools: [String!]
  }
  input UpdateAgentInput {
    name: String
    instructions: String
    model: String
    tools: [String!]
  }
  input StartConversationInput {
    agentId: ID!
    title: String
  }
  input ConversationDateRangeInput {
    from: String
    to: String
  }
  input ConversationFilterInput {
    type: ConversationFilterType!
    objectIds: [ID!]
    dateRange: ConversationDateRangeInput
    searchFilters: JSON
  }
  input SearchConversationsInput {
    query: String
    agentId: ID
    filters: [ConversationFilterInput!]
    limit: Int
  }
  type Agent {
    id: ID!
    name: String!
    instructions: String!
    model: String
    tools: [String!]!
    createdBy: ID
    viewerCanEdit: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  type AgentToolCall {
    name: String!
    arguments: String!
  }
  type AgentMessage {
    id: ID!
    conversationId: ID!
    type: AgentMessageType!
    content: String!
    "The tool a RESULT answers."
    toolName: String
    toolInput: JSON
    "The tools a THINKING step called."
    toolCalls: [AgentToolCall!]!
    "Items a RESULT names, with links."
    items: [AgentToolItem!]!
    error: Boolean!
    rating: AgentResponseRating
    "Quotations in an ASSISTANT answer not found in what its tools read: replaced before anyone reads it."
    droppedQuotes: Int!
    createdAt: DateTime!
  }
  type AgentPendingConfirmation {
    question: String!
    toolName: String!
    input: JSON
    "What the action will do, in words."
    summary: AgentActionSummary
  }
  "SAME: kept; REMOVED, ADDED; SKIPPED: a run of kept paragraphs left out, counted in its text."
  enum AgentDiffKind {
    SAME
    REMOVED
    ADDED
    SKIPPED
  }
  "One paragraph of a change to a note."
  type AgentDiffLine {
    kind: AgentDiffKind!
    text: String!
  }
  type AgentActionSummary {
    "The action: 'Create a note', 'Delete all the text of a note', 'Send an email', the question asked."
    action: String!
    "Where it acts: a project or note by its title."
    target: String
    "The title it gives."
    title: String
    "The text it writes or sends (the start of it, when long)."
    preview: String
    "Its other inputs, one 'Label: value' a line."
    details: [String!]!
    "What will not happen as the agent asked, and why (recipients left out)."
    warnings: [String!]!
    "A note's text before and after the change, paragraph by paragraph."
    diff: [AgentDiffLine!]
  }
  type AgentConversation {
    id: ID!
    agentId: ID!
    agent: Agent
    title: String!
    status: AgentConversationStatus!
    "What the agent asks the person, while it waits."
    pending: AgentPendingConfirmation
    messages: [AgentMessage!]!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
`;
