import { z } from 'zod';
import { validate, type AgentTool, type RequestContext, type ToolInputSchema, type ToolResult } from '@fieldbook/core';

/**
 * An agent tool as this module keeps it: `sendsOutside` marks tools whose effect leaves the
 * workspace (email, Slack, plugins' write tools), which carry only what their readers may open.
 */
export interface Tool extends AgentTool {
  sendsOutside?: boolean;
}

export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  access: 'read' | 'write';
  needsConfirmation?: boolean;
  sendsOutside?: boolean;
  input: S;
  run(member: RequestContext, input: z.output<S>): Promise<ToolResult>;
}

/**
 * The JSON Schema of a tool's zod input, as models and MCP clients read it. zod writes the
 * keywords; the `$schema` line is left out because servers reject or ignore it in tool parameters.
 */
export function inputSchemaOf(schema: z.ZodType): ToolInputSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return {
    type: 'object',
    properties: (json.properties ?? {}) as ToolInputSchema['properties'],
    ...(Array.isArray(json.required) && json.required.length > 0 ? { required: json.required as string[] } : {}),
    additionalProperties: false,
  };
}

/** An agent tool from a zod input: the model's arguments are validated (BAD_USER_INPUT naming the field) before `run`. */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): Tool {
  return {
    name: spec.name,
    description: spec.description,
    access: spec.access,
    ...(spec.needsConfirmation ? { needsConfirmation: true } : {}),
    ...(spec.sendsOutside ? { sendsOutside: true } : {}),
    inputSchema: inputSchemaOf(spec.input),
    run: (member, input) => spec.run(member, validate(spec.input, input ?? {})),
  };
}

/** A uuid argument whose error names the field. */
export const idArg = (field: string, what: string) =>
  z.uuid({ error: `${field} must be the id of ${what}.` }).describe(`The id of ${what}.`);

/** Lists cut short for a prompt: at most `max` lines, saying how many were left out. */
export function lines<T>(items: readonly T[], line: (item: T) => string, empty: string, max = 50): string {
  if (items.length === 0) return empty;
  const shown = items.slice(0, max).map(line);
  if (items.length > max) shown.push(`… and ${items.length - max} more.`);
  return shown.join('\n');
}
