import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, badInput, forbidden, notFound, validate, type RequestContext } from '@fieldbook/core';
import { memberOf, type Member } from '../tools/access.ts';
import { ASK_FOR_CONFIRMATION } from '../tools/messaging.ts';

export const AGENT_NAME_MAX = 255;
export const INSTRUCTIONS_MAX = 20_000;

export interface AgentRow {
  id: string;
  workspace_id: string;
  name: string;
  instructions: string;
  model: string | null;
  tools: string[];
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const fields = {
  name: z
    .string({ error: 'name must be text.' })
    .trim()
    .min(1, 'name: an agent needs a name.')
    .max(AGENT_NAME_MAX, `name: an agent name can have at most ${AGENT_NAME_MAX} characters.`),
  instructions: z
    .string({ error: 'instructions must be text.' })
    .max(INSTRUCTIONS_MAX, `instructions: at most ${INSTRUCTIONS_MAX.toLocaleString('en-US')} characters.`),
  model: z.string({ error: 'model must be text.' }).trim().max(200, 'model: at most 200 characters.').nullable(),
  tools: z
    .array(z.string({ error: 'tools: each must be a tool name.' }).max(200))
    .max(100, 'tools: at most 100 tools.'),
};
const createInput = z.object({
  name: fields.name,
  instructions: fields.instructions.default(''),
  model: fields.model.optional(),
  tools: fields.tools.default([]),
});
const updateInput = z.object({
  name: fields.name.optional(),
  instructions: fields.instructions.optional(),
  model: fields.model.optional(),
  tools: fields.tools.optional(),
});

/** Tool names an agent may be given: those the toolbox has now (askForConfirmation is always on). */
function checkTools(tools: readonly string[], available: readonly string[]): string[] {
  const unknown = tools.filter((t) => !available.includes(t));
  if (unknown.length > 0) throw badInput('tools', `tools: there is no tool named ${unknown.join(', ')}.`);
  return [...new Set(tools.filter((t) => t !== ASK_FOR_CONFIRMATION))];
}

/** Agents are the workspace's: every member may use them; people who may write create them. */
export async function agentFor(trx: Knex.Transaction, m: Member, id: string): Promise<AgentRow> {
  const row = (await trx('agents').where({ id, workspace_id: m.workspaceId }).first()) as AgentRow | undefined;
  if (!row) throw notFound('That agent');
  return row;
}

/** Its creator and workspace admins may change or delete an agent. */
function assertMayEdit(m: Member, agent: AgentRow): void {
  if (agent.created_by === m.userId || m.membership.effectiveRole === 'WORKSPACE_ADMIN') return;
  throw forbidden('Only the person who made this agent and workspace admins can change it.');
}

export const mayEdit = (m: Member, agent: AgentRow): boolean =>
  agent.created_by === m.userId || m.membership.effectiveRole === 'WORKSPACE_ADMIN';

export async function listAgents(ctx: RequestContext): Promise<AgentRow[]> {
  const m = memberOf(ctx);
  return ctx.tx(
    async (trx) =>
      (await trx('agents').where({ workspace_id: m.workspaceId }).orderBy('name').limit(500)) as AgentRow[],
  );
}

export async function getAgent(ctx: RequestContext, id: unknown): Promise<AgentRow> {
  const m = memberOf(ctx);
  const agentId = validate(z.uuid({ error: 'id must be an agent id.' }), id);
  return ctx.tx((trx) => agentFor(trx, m, agentId));
}

export async function createAgent(
  ctx: RequestContext,
  input: unknown,
  available: readonly string[],
): Promise<AgentRow> {
  const m = memberOf(ctx);
  try {
    ctx.authorize('notes:create');
  } catch {
    throw new AppError('FORBIDDEN', 'Viewers cannot create agents.');
  }
  const v = validate(createInput, input);
  const tools = checkTools(v.tools, available);
  return ctx.tx(async (trx) => {
    const [row] = (await trx('agents')
      .insert({
        workspace_id: m.workspaceId,
        name: v.name,
        instructions: v.instructions,
        model: v.model || null,
        tools,
        created_by: m.userId,
      })
      .returning('*')) as AgentRow[];
    return row!;
  });
}

export async function updateAgent(
  ctx: RequestContext,
  id: unknown,
  input: unknown,
  available: readonly string[],
): Promise<AgentRow> {
  const m = memberOf(ctx);
  const agentId = validate(z.uuid({ error: 'id must be an agent id.' }), id);
  const v = validate(updateInput, input);
  return ctx.tx(async (trx) => {
    const agent = await agentFor(trx, m, agentId);
    assertMayEdit(m, agent);
    const patch: Record<string, unknown> = { updated_at: trx.fn.now() };
    if (v.name !== undefined) patch.name = v.name;
    if (v.instructions !== undefined) patch.instructions = v.instructions;
    if (v.model !== undefined) patch.model = v.model || null;
    if (v.tools !== undefined) patch.tools = checkTools(v.tools, available);
    const [row] = (await trx('agents').where({ id: agentId }).update(patch).returning('*')) as AgentRow[];
    return row!;
  });
}

export async function deleteAgent(ctx: RequestContext, id: unknown): Promise<boolean> {
  const m = memberOf(ctx);
  const agentId = validate(z.uuid({ error: 'id must be an agent id.' }), id);
  return ctx.tx(async (trx) => {
    const agent = await agentFor(trx, m, agentId);
    assertMayEdit(m, agent);
    await trx('agents').where({ id: agentId }).delete();
    return true;
  });
}
