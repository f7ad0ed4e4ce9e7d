/** The GraphQL operations of the agents screens (modules/agents/src/api/schema.ts). */
import type { ActionSummary, DiffLine } from '../src/conversations/confirmation.ts';

export interface AgentToolInfo {
  name: string;
  description: string;
  access: 'read' | 'write';
  needsConfirmation: boolean;
}

export interface Agent {
  id: string;
  name: string;
  instructions: string;
  model: string | null;
  tools: string[];
  viewerCanEdit: boolean;
  updatedAt: string;
}

export interface AgentItem {
  type: string;
  id: string;
  title: string | null;
  url: string | null;
}

export interface AgentMessage {
  id: string;
  type: 'ASSISTANT' | 'RESULT' | 'THINKING' | 'USER';
  content: string;
  toolName: string | null;
  toolCalls: Array<{ name: string; arguments: string }>;
  items: AgentItem[];
  error: boolean;
  rating: 'Good' | 'Bad' | null;
  /** Quotations in an answer not found in what the agent's tools read: replaced before it was shown. */
  droppedQuotes: number;
}

/** What an action awaiting confirmation will do, in words (the server describes it). */
export type { ActionSummary, DiffLine };

export interface Pending {
  question: string;
  toolName: string;
  input: unknown;
  summary: ActionSummary | null;
}

export interface Conversation {
  id: string;
  agentId: string;
  title: string;
  status: 'IDLE' | 'RUNNING' | 'AWAITING_CONFIRMATION';
  pending: Pending | null;
  updatedAt: string;
  agent?: { id: string; name: string } | null;
  messages?: AgentMessage[];
}

const AGENT = 'id name instructions model tools viewerCanEdit updatedAt';
const MESSAGE =
  'id type content toolName toolCalls { name arguments } items { type id title url } error rating droppedQuotes';
const CONVERSATION =
  'id agentId title status pending { question toolName input summary { action target title preview details warnings diff { kind text } } } updatedAt agent { id name }';

export const Q = {
  agents: `{ agents { ${AGENT} } }`,
  tools: `{ agentTools { name description access needsConfirmation } }`,
  agent: `query($id: ID!) { agent(id: $id) { ${AGENT} } agentConversations(agentId: $id) { ${CONVERSATION} } }`,
  create: `mutation($input: CreateAgentInput!) { createAgent(input: $input) { ${AGENT} } }`,
  update: `mutation($id: ID!, $input: UpdateAgentInput!) { updateAgent(id: $id, input: $input) { ${AGENT} } }`,
  remove: `mutation($id: ID!) { deleteAgent(id: $id) }`,
  start: `mutation($input: StartConversationInput!) { startConversation(input: $input) { ${CONVERSATION} } }`,
  conversation: `query($id: ID!) { agentConversation(id: $id) { ${CONVERSATION} messages { ${MESSAGE} } } }`,
  rate: `mutation($id: ID!, $rating: AgentResponseRating) { rateMessage(messageId: $id, rating: $rating) { ${MESSAGE} } }`,
  search: `query($input: SearchConversationsInput!) { searchConversations(input: $input) { ${CONVERSATION} } }`,
};

export function errorText(err: unknown): string {
  const items =
    err && typeof err === 'object' && 'errors' in err
      ? (err as { errors: Array<{ message?: string; extensions?: { humanReadable?: boolean } }> }).errors
      : null;
  const first = items?.[0];
  if (first?.message && first.extensions?.humanReadable !== false) return first.message;
  if (err instanceof Error && err.message) return err.message;
  return 'That did not work. Please try again in a moment.';
}

/** A tool's name as people read it: list_project_notes → List project notes. */
export const toolLabel = (name: string) => {
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
