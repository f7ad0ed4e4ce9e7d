import type { RequestContext } from '../kernel/request-context.ts';

/**
 * The agent tool contract (001 §3.3). Agents, the MCP server and automation all run the same
 * tools: each module that owns data contributes its tools as `agentTools()` in its services,
 * plugins contribute theirs through the SDK, and whoever runs a tool passes the context of the
 * person it acts for, so every tool is checked like any request of theirs.
 */

export type ToolJson = null | boolean | number | string | ToolJson[] | { [key: string]: ToolJson };

/** A JSON Schema object describing a tool's input, as model servers and MCP clients expect it. */
export interface ToolInputSchema {
  type: 'object';
  properties: { [name: string]: { [keyword: string]: ToolJson } };
  required?: string[];
  additionalProperties?: boolean;
}

/** An object a tool's answer refers to, so an answer can cite it and the UI can link it. */
export interface ToolItem {
  /** A search result type of 000 §3 (NOTE, HIGHLIGHT, INSIGHT, CHANNEL_DATAPOINT, THEME, ...). */
  type: string;
  id: string;
  title?: string;
  /** Path in the web app, e.g. `/projects/{id}/notes/{noteId}`. */
  url?: string;
  /** Text the item holds, which quotes in an answer are verified against. */
  text?: string;
}

export interface ToolResult {
  /** What the model reads: plain text, short enough for a prompt. */
  text: string;
  items?: ToolItem[];
  /** Structured output for MCP clients and the UI. */
  data?: ToolJson;
}

export interface AgentTool {
  /** snake_case, unique across modules and plugins (a plugin's are prefixed with its id). */
  name: string;
  /** What the model reads to decide when to call it. */
  description: string;
  inputSchema: ToolInputSchema;
  /** Read tools are offered everywhere; write tools only where the workspace allows changes. */
  access: 'read' | 'write';
  /** Ask the person before running (create_document, edit_document): the conversation pauses. */
  needsConfirmation?: boolean;
  /** Validates `input` itself (BAD_USER_INPUT naming the field) and acts as `member`. */
  run(member: RequestContext, input: unknown): Promise<ToolResult>;
}

/** What a module's services offer when it contributes agent tools. */
export interface AgentToolSource {
  agentTools(): AgentTool[];
}
