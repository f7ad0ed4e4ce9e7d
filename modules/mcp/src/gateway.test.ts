import { describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import type { AgentTool, RequestContext } from '@fieldbook/core';
import { toolboxFor, type McpToolSource } from './gateway.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const WS = '22222222-2222-4222-8222-222222222222';

/** A member whose transactions write audit rows into `audits` and read no MCP settings (the default). */
function member(audits: Array<Record<string, unknown>>): RequestContext {
  const trx = ((table: string) => ({
    where: () => ({ first: async () => undefined }),
    insert: async (row: Record<string, unknown>) => void audits.push({ table, ...row }),
  })) as unknown as Knex.Transaction;
  return {
    authorize: () => ({
      viewer: { userId: USER, email: 'a@example.com', name: 'A', sessionId: null, apiTokenId: 'tok' },
      workspace: { id: WS },
      membership: {},
    }),
    tx: <T>(fn: (t: Knex.Transaction) => Promise<T>) => fn(trx),
  } as unknown as RequestContext;
}

const tool = (name: string, access: 'read' | 'write'): AgentTool => ({
  name,
  description: name,
  access,
  inputSchema: { type: 'object', properties: {} },
  run: async () => ({ text: name }),
});

describe('the MCP toolbox', () => {
  it('answers an unexpected failure with a plain sentence, logs it, and audits it; the stack stays on the server', async () => {
    const audits: Array<Record<string, unknown>> = [];
    const logged: unknown[] = [];
    const source: McpToolSource = {
      tools: () => [tool('crash', 'read'), tool('askForConfirmation', 'read'), tool('touch', 'write')],
      runTool: async () => {
        throw new Error('connection reset at /srv/internal.ts:12');
      },
      mayRun: () => true,
    };
    const logger = { error: (o: unknown) => logged.push(o) } as unknown as Parameters<typeof toolboxFor>[2];
    const box = await toolboxFor(member(audits), source, logger);
    expect(box.tools.map((t) => t.name)).toEqual(['crash']);
    const answer = await box.call('crash', {});
    expect(answer).toEqual({
      content: [{ type: 'text', text: 'Something went wrong on our side. Please try again.' }],
      isError: true,
    });
    expect(JSON.stringify(answer)).not.toContain('internal.ts');
    expect(logged).toHaveLength(1);
    expect(audits).toEqual([
      expect.objectContaining({
        table: 'audit_log',
        kind: 'MCP_TOOL_CALL',
        actor_user_id: USER,
        subject_id: 'tok',
        metadata: JSON.stringify({
          tool: 'crash',
          access: 'read',
          outcome: 'error',
          errorCode: 'INTERNAL_SERVER_ERROR',
        }),
      }),
    ]);
  });
});
