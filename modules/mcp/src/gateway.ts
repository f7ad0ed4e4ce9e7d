import {
  AppError,
  recordAudit,
  type AgentTool,
  type ModuleContext,
  type RequestContext,
  type ToolJson,
  type ToolResult,
} from '@fieldbook/core';
import { readMcpSettings } from './settings.ts';

type Logger = ModuleContext['logger'];

export const WRITES_NOT_ALLOWED =
  'This workspace does not allow MCP clients to make changes. A workspace admin can allow it in Settings → AI.';
export const unknownTool = (name: string) => `There is no tool named "${name}".`;
const INTERNAL = 'Something went wrong on our side. Please try again.';

/** A tool's answer as MCP sends it: text for the model, structured content for the client. */
export interface McpToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
}

/** Where the tools come from: the agents module's services (its own tools, the channels module's and plugins'). */
export interface McpToolSource {
  tools(): readonly AgentTool[];
  /** Runs one tool as the member, checked like any request of theirs. */
  runTool(member: RequestContext, name: string, input: unknown): Promise<ToolResult>;
  /** Whether the member's role lets them run the tool (a viewer runs no write tool). */
  mayRun(member: RequestContext, tool: Pick<AgentTool, 'access'>): boolean;
}

/**
 * Tools that only make sense inside an agent's conversation: an MCP client asks its own user
 * before a tool changes anything, so there is nobody for `askForConfirmation` to ask.
 */
const CONVERSATION_ONLY = new Set(['askForConfirmation']);

/**
 * The tools one MCP request may see and run: read tools always, write tools when the workspace
 * allows changes and the member's role lets them make changes.
 */
export interface McpToolbox {
  tools: AgentTool[];
  call(name: string, input: unknown): Promise<McpToolAnswer>;
}

const structured = (r: ToolResult): { items: ToolJson; data: ToolJson } => ({
  items: (r.items ?? []).map((i) => ({ ...i }) as { [key: string]: ToolJson }),
  data: r.data ?? null,
});

const errorAnswer = (message: string): McpToolAnswer => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * Builds the toolbox of a member calling through MCP with an API token. Every call is recorded in
 * the audit log (tool, token, outcome), refused ones included, so admins can see what clients did.
 * Errors come back as the product's own message, a BAD_USER_INPUT one naming the field; anything
 * unexpected is logged and answered with a plain sentence, never a stack.
 */
export async function toolboxFor(member: RequestContext, source: McpToolSource, logger: Logger): Promise<McpToolbox> {
  const { viewer, workspace } = member.authorize('projects:read');
  const settings = await member.tx((trx) => readMcpSettings(trx, workspace.id));
  const all = source.tools().filter((t) => !CONVERSATION_ONLY.has(t.name));
  // Listed: what this member may run. A write tool their role forbids is refused when called (below
  // and by the source), never offered.
  const tools = all.filter((t) => (t.access === 'read' || settings.allowWrites) && source.mayRun(member, t));

  async function audit(tool: string, access: string | null, outcome: string, errorCode?: string) {
    await member.tx((trx) =>
      recordAudit(trx, {
        workspaceId: workspace.id,
        actorUserId: viewer.userId,
        kind: 'MCP_TOOL_CALL',
        subjectType: 'api_token',
        ...(viewer.apiTokenId ? { subjectId: viewer.apiTokenId } : {}),
        metadata: { tool, access, outcome, ...(errorCode ? { errorCode } : {}) },
      }),
    );
  }

  return {
    tools,
    async call(name, input) {
      const tool = all.find((t) => t.name === name);
      if (!tool) {
        await audit(name.slice(0, 100), null, 'refused', 'NOT_FOUND');
        return errorAnswer(unknownTool(name.slice(0, 100)));
      }
      if (tool.access === 'write' && !settings.allowWrites) {
        await audit(name, tool.access, 'refused', 'FORBIDDEN');
        return errorAnswer(WRITES_NOT_ALLOWED);
      }
      try {
        const result = await source.runTool(member, name, input ?? {});
        await audit(name, tool.access, 'ok');
        return { content: [{ type: 'text', text: result.text }], structuredContent: structured(result) };
      } catch (err) {
        if (err instanceof AppError) {
          await audit(name, tool.access, 'error', err.errorCode);
          return errorAnswer(err.humanReadable ? err.message : INTERNAL);
        }
        logger.error({ err, tool: name }, 'MCP tool failed');
        await audit(name, tool.access, 'error', 'INTERNAL_SERVER_ERROR');
        return errorAnswer(INTERNAL);
      }
    },
  };
}
