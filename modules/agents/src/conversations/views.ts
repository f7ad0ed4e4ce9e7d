import type { MessageRow } from './message-row.ts';
import type { ConversationRow } from './store.ts';

export interface MessageView {
  id: string;
  conversationId: string;
  type: MessageRow['type'];
  content: string;
  toolName: string | null;
  toolInput: unknown;
  toolCalls: Array<{ name: string; arguments: string }>;
  items: Array<{ type: string; id: string; title: string | null; url: string | null }>;
  error: boolean;
  rating: MessageRow['rating'];
  droppedQuotes: number;
  createdAt: Date;
}

export function messageView(r: MessageRow): MessageView {
  return {
    id: r.id,
    conversationId: r.conversation_id,
    type: r.type,
    content: r.content,
    toolName: r.tool?.name ?? null,
    toolInput: r.tool?.input ?? null,
    toolCalls: (r.tool?.calls ?? []).map((c) => ({ name: c.name, arguments: c.arguments })),
    items: (r.tool?.items ?? []).map((i) => ({ type: i.type, id: i.id, title: i.title ?? null, url: i.url ?? null })),
    error: Boolean(r.tool?.error),
    rating: r.rating,
    droppedQuotes: r.tool?.droppedQuotes ?? 0,
    createdAt: r.created_at,
  };
}

export function conversationView(c: ConversationRow) {
  return {
    id: c.id,
    agentId: c.agent_id,
    title: c.title,
    status: c.status,
    pending: c.pending
      ? {
          question: c.pending.question,
          toolName: c.pending.toolName,
          input: c.pending.input,
          // Conversations paused before warnings and diffs were described have neither.
          summary: c.pending.summary
            ? {
                ...c.pending.summary,
                warnings: c.pending.summary.warnings ?? [],
                diff: c.pending.summary.diff ?? null,
              }
            : null,
        }
      : null,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}
