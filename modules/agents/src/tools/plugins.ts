import { type AgentTool, type ExtensionsServices, type ToolInputSchema } from '@fieldbook/core';
import { memberOf } from './access.ts';

/**
 * Plugins' tools (the SDK's `server.tools`), through the plugin host: named `{pluginId}_{name}`,
 * checked in the plugin's sandbox and run for the workspace's installation as the person.
 */
export function pluginTools(host: ExtensionsServices['host']): AgentTool[] {
  return host.agentTools().map((t) => {
    const schema = t.inputSchema as Partial<ToolInputSchema>;
    return {
      name: `${t.pluginId}_${t.name}`,
      description: `${t.description} (from the ${t.pluginName} extension)`,
      access: t.access,
      ...(t.needsConfirmation ? { needsConfirmation: true } : {}),
      inputSchema: {
        type: 'object',
        properties: schema.properties ?? {},
        ...(schema.required ? { required: schema.required } : {}),
        additionalProperties: false,
      },
      async run(member, input) {
        const m = memberOf(member);
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
