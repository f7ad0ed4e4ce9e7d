import type { ToolCall, ToolItem } from '@fieldbook/core';

export const MESSAGE_TYPES = ['ASSISTANT', 'RESULT', 'THINKING', 'USER'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** What a message keeps of tools: the calls the model made, or the call a RESULT answers. */
export interface MessageTool {
  calls?: ToolCall[];
  callId?: string;
  name?: string;
  input?: unknown;
  items?: ToolItem[];
  error?: boolean;
  /** An ASSISTANT answer's quotations that its tools' items did not hold, replaced before it was stored. */
  droppedQuotes?: number;
}

/** A stored message of a conversation, as agent_messages holds it. */
export interface MessageRow {
  id: string;
  conversation_id: string;
  seq: string;
  type: MessageType;
  content: string;
  tool: MessageTool | null;
  item_ids: string[];
  rating: 'Good' | 'Bad' | null;
  created_at: Date;
}
