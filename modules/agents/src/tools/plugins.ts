import { AppError, type ExtensionsServices, type ToolInputSchema } from '@fieldbook/core';
import { currentSources } from '../conversations/sources.ts';
import { memberOf } from './access.ts';
import type { Tool } from './define.ts';
import { outsideRefusal } from './recipients.ts';

/**
 * Plugins' tools (the SDK's `server.tools`), through the plugin host: named `{pluginId}_{name}`,
 * checked in the plugin's sandbox and run for the workspace's installation as the person.
 *
 * A plugin's own word on its tools is not trusted: the host stops a `read` tool at the first
 * capability it calls that changes something, and every `write` tool asks the person first and
 * counts as sending out of the workspace (its plugin may post what it is given to its service).
 */
export function pluginTools(host: ExtensionsServices['host']): Tool[] {
  return host.agentTools().map((t) => {
    const schema = t.inputSchema as Partial<ToolInputSchema>;
    const write = t.access === 'write';
    return {
      name: `${t.pluginId}_${t.name}`,
      description: `${t.description} (from the ${t.pluginName} extension)`,
      access: t.access,
      ...(write || t.needsConfirmation ? { needsConfirmation: true } : {}),
      ...(write ? { sendsOutside: true } : {}),
      inputSchema: {
        type: 'object',
        properties: schema.properties ?? {},
        ...(schema.required ? { required: schema.required } : {}),
        additionalProperties: false,
      },
      async run(member, input) {
        const m = memberOf(member);
        const closed = write ? outsideRefusal(currentSources()) : null;
        if (closed) throw new AppError('INVALID_OPERATION', `Nothing was done: ${closed}`);
        const answer = await host.runTool({
          pluginId: t.pluginId,
          workspaceId: m.workspaceId,
          userId: m.userId,
          name: t.name,
          input: input ?? {},
        });
        return {
          text: answer.text,
          ...(answer.items ? { items: answer.items } : {}),
          ...(answer.data ? { data: answer.data } : {}),
        };
      },
    };
  });
}
