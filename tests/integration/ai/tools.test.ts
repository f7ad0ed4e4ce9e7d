import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiService, type AiService } from '../../../core/src/ai/provider.ts';
import { readUsage } from '../../../core/src/ai/usage.ts';
import { loadConfig } from '../../../core/src/config.ts';
import { withTenant } from '../../../core/src/db/tenancy.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { createWorkspaceWithAdmin } from '../../support/factories.ts';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { startAiServer } from './corpus.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let ai: AiService;
let workspaceId: string;

// The provider as agents and automation will use it from the module context: tools, both ways.
beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAiServer());
  workspaceId = (await createWorkspaceWithAdmin(server, mail)).id;
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }, { secretKey: 'k'.repeat(40) }), ...aiConfig(fake) };
  ai = createAiService({ config, db: server.fieldbook.db.app, logger: createLogger('silent') });
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

const SEARCH_TOOL = {
  name: 'keyword_search',
  description: 'Searches the research',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

describe('the provider on the module context', () => {
  it('offers tools and reads the calls the model makes, streamed or not, counting their tokens', async () => {
    const before = await withTenant(server.fieldbook.db.app, { workspaceId }, (trx) => readUsage(trx, workspaceId));
    fake.script({
      content: '',
      toolCalls: [{ name: 'keyword_search', arguments: '{"query":"onboarding"}' }],
      usage: { prompt: 30, completion: 7 },
    });
    const plain = await ai.chat(
      { workspaceId, userId: null, feature: 'agents' },
      { messages: [{ role: 'user', content: 'Find onboarding notes' }], tools: [SEARCH_TOOL] },
    );
    expect(plain.toolCalls).toEqual([{ id: 'call_0', name: 'keyword_search', arguments: '{"query":"onboarding"}' }]);
    const sent = fake.requests.at(-1)!.body as { tools: unknown[] };
    expect(sent.tools).toEqual([{ type: 'function', function: SEARCH_TOOL }]);

    fake.script({
      content: 'Looking.',
      toolCalls: [{ name: 'keyword_search', arguments: '{"query":"pricing"}' }],
      usage: { prompt: 40, completion: 9 },
    });
    const deltas: string[] = [];
    const streamed = await ai.chat(
      { workspaceId, userId: null, feature: 'agents' },
      { messages: [{ role: 'user', content: 'Find pricing notes' }], tools: [SEARCH_TOOL] },
      { onDelta: (d) => deltas.push(d) },
    );
    expect(deltas.join('')).toBe('Looking.');
    expect(streamed.toolCalls).toEqual([{ id: 'call_0', name: 'keyword_search', arguments: '{"query":"pricing"}' }]);
    expect(streamed).toMatchObject({ text: 'Looking.', model: 'fake-chat', promptTokens: 40, completionTokens: 9 });

    const after = await withTenant(server.fieldbook.db.app, { workspaceId }, (trx) => readUsage(trx, workspaceId));
    expect(after.promptTokens - before.promptTokens).toBe(70);
    expect(after.completionTokens - before.completionTokens).toBe(16);
    expect(after.calls - before.calls).toBe(2);
  });
});
