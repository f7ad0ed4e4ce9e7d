import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';
import { startAgentsServer } from './support.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let conversationId: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAgentsServer(aiConfig(fake)));
  f = await contentFixture(server, mail, ['CONTRIBUTOR']);
  const agentId = ok(
    await f.contributor.gql<{ createAgent: { id: string } }>(
      `mutation($input: CreateAgentInput!) { createAgent(input: $input) { id } }`,
      { input: { name: 'Helper', instructions: 'Be brief.', tools: ['keyword_search'] } },
    ),
  ).createAgent.id;
  conversationId = ok(
    await f.contributor.gql<{ startConversation: { id: string } }>(
      `mutation($input: StartConversationInput!) { startConversation(input: $input) { id } }`,
      { input: { agentId } },
    ),
  ).startConversation.id;
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

/**
 * The streamed message route refuses text PostgreSQL cannot store as GraphQL does: bad input
 * naming the field, before anything is stored or the model is asked.
 */
describe('a message to an agent with text the database cannot store', () => {
  const sendRaw = (body: string) =>
    fetch(`${server.url}/api/agents/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${f.contributor.accessToken}`,
        'x-fieldbook-workspace': f.ws.id,
        'content-type': 'application/json',
      },
      body,
    });

  it.each([
    ['the NUL character', 'Hello\u0000there', /^text cannot contain the NUL character/],
    ['half a surrogate pair', 'Half an emoji \ud83d', /^text is not valid Unicode/],
  ])('refuses %s as bad input naming the field, storing nothing', async (_what, text, message) => {
    const asked = fake.requests.length;
    const res = await sendRaw(JSON.stringify({ text }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ message: string; extensions: { errorCode: string } }> };
    expect(body.errors[0]!.extensions.errorCode).toBe('BAD_USER_INPUT');
    expect(body.errors[0]!.message).toMatch(message);
    expect(fake.requests.length).toBe(asked);
    const stored = await server.fieldbook.db
      .owner('agent_messages')
      .where({ conversation_id: conversationId })
      .count('* as n');
    expect(Number(stored[0]!.n)).toBe(0);
  });
});
