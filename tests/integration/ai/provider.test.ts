import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { failure, ok } from '../research/content-support.ts';
import { buildCorpus, startAiServer, type Corpus } from './corpus.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let c: Corpus;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAiServer(aiConfig(fake, { maxRetries: 3, embeddingModel: 'fake-embed' })));
  c = await buildCorpus(server, mail);
  fake.onChat = () => ({
    content: JSON.stringify({ type: 'text', text: 'A summary.' }),
    usage: { prompt: 120, completion: 40 },
  });
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

const SUMMARIZE = `mutation($id: ID!) { summarize(input: { objectType: NOTE, objectId: $id }) { status text } }`;
const SETTINGS = `enabled features { summaries ask translation } modes { summarize highlights tags redact insights } monthlyTokenCap usage { promptTokens completionTokens calls } model { configured chatModel embeddingModel endpointHost }`;
const UPDATE = `mutation($input: UpdateAiSettingsInput!) { updateAiSettings(input: $input) { ${SETTINGS} } }`;
const chats = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');

describe('the AI provider', () => {
  it('retries a 429 after the Retry-After the server gave', async () => {
    const before = chats().length;
    fake.script({ status: 429, retryAfter: '1', message: 'Rate limit reached' });
    const started = Date.now();
    expect(
      ok(await c.f.contributor.gql<{ summarize: { text: string } }>(SUMMARIZE, { id: c.notes.maria })).summarize.text,
    ).toBe('A summary.');
    const tries = chats().slice(before);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx answers with backoff, and gives up after the configured retries with a message people can read', async () => {
    let before = chats().length;
    fake.script({ status: 503 }, { status: 502 });
    ok(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
    expect(chats().length - before).toBe(3);

    before = chats().length;
    fake.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const err = failure(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
    expect(chats().length - before).toBe(4);
    expect(err.message).toBe('The AI model could not answer (it answered 500); try again in a minute.');

    // A 400 is the request's fault: it is not retried.
    before = chats().length;
    fake.script({ status: 400, message: 'bad request' });
    failure(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
    expect(chats().length - before).toBe(1);
  });

  it('counts tokens per workspace and stops calls at the monthly cap with a message naming it', async () => {
    const start = ok(
      await c.f.admin<{ aiSettings: { usage: { promptTokens: number; completionTokens: number } } }>(
        `{ aiSettings { ${SETTINGS} } }`,
      ),
    ).aiSettings.usage;
    ok(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
    const after = ok(
      await c.f.admin<{ aiSettings: { usage: { promptTokens: number; completionTokens: number } } }>(
        `{ aiSettings { ${SETTINGS} } }`,
      ),
    ).aiSettings.usage;
    expect(after.promptTokens - start.promptTokens).toBe(120);
    expect(after.completionTokens - start.completionTokens).toBe(40);

    const used = after.promptTokens + after.completionTokens;
    ok(await c.f.admin(UPDATE, { input: { monthlyTokenCap: used + 100 } }));
    ok(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria })); // under the cap when it starts
    const before = chats().length;
    const err = failure(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
    expect(err.extensions?.errorCode).toBe('TOO_MANY_REQUESTS');
    expect(err.message).toContain(`monthly AI cap of ${(used + 100).toLocaleString('en-US')} tokens`);
    expect(chats().length).toBe(before); // the model was not called
    const ask = failure(await c.f.viewer.gql(`query { ask(input: { question: "What about onboarding?" }) { label } }`));
    expect(ask.extensions?.errorCode).toBe('TOO_MANY_REQUESTS');
    ok(await c.f.admin(UPDATE, { input: { monthlyTokenCap: null } }));
    ok(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
  });

  it('lets only admins change AI settings, checks them, and honours features switched off', async () => {
    const s = ok(
      await c.f.viewer.gql<{ aiSettings: Record<string, unknown> }>(`{ aiSettings { ${SETTINGS} } }`),
    ).aiSettings;
    expect(s).toMatchObject({
      enabled: true,
      modes: { summarize: 'On', highlights: 'Suggest', tags: 'On', redact: 'On', insights: 'On' },
      model: {
        configured: true,
        chatModel: 'fake-chat',
        embeddingModel: 'fake-embed',
        endpointHost: new URL(fake.url).host,
      },
    });
    expect(failure(await c.f.manager.gql(UPDATE, { input: { enabled: false } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    const neg = failure(await c.f.admin(UPDATE, { input: { monthlyTokenCap: -1 } }));
    expect(neg.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'monthlyTokenCap' });
    const big = failure(await c.f.admin(UPDATE, { input: { monthlyTokenCap: 2e9 } }));
    expect(big.message).toContain('1,000,000,000');
    const mode = failure(await c.f.admin(UPDATE, { input: { modes: { tags: 'Sometimes' } } }));
    expect(mode.extensions?.errorCode).toBe('BAD_USER_INPUT');

    const off = ok(
      await c.f.admin<{ updateAiSettings: { modes: { highlights: string }; features: { summaries: boolean } } }>(
        UPDATE,
        { input: { features: { summaries: false }, modes: { highlights: 'Off' } } },
      ),
    ).updateAiSettings;
    expect(off).toMatchObject({ modes: { highlights: 'Off' }, features: { summaries: false } });
    const refused = failure(await c.f.contributor.gql(SUMMARIZE, { id: c.notes.maria }));
    expect(refused.extensions?.errorCode).toBe('FORBIDDEN');
    expect(refused.message).toContain('Settings → AI');
    ok(await c.f.admin(UPDATE, { input: { enabled: false, features: { summaries: true } } }));
    expect(
      failure(await c.f.viewer.gql(`query { ask(input: { question: "onboarding?" }) { label } }`)).extensions
        ?.errorCode,
    ).toBe('FORBIDDEN');
    ok(await c.f.admin(UPDATE, { input: { enabled: true } }));
  });

  it('builds embeddings in the background and retrieves by them too', async () => {
    expect(
      ok(await c.f.admin<{ rebuildAiEmbeddings: boolean }>(`mutation { rebuildAiEmbeddings }`)).rebuildAiEmbeddings,
    ).toBe(true);
    expect(failure(await c.f.contributor.gql(`mutation { rebuildAiEmbeddings }`)).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    const embeds = () => fake.requests.filter((r) => r.path === '/v1/embeddings');
    await expect.poll(() => embeds().length, { timeout: 20_000 }).toBeGreaterThan(0);
    const batch = embeds()[0]!.body as { input: string[] };
    // Two notes and two highlights of the study, the insight, and the restricted project's note and highlight.
    expect(batch.input).toHaveLength(7);
    fake.onChat = () => ({ content: JSON.stringify({ type: 'text', content: 'Imports fail.', citations: [] }) });
    const before = embeds().length;
    ok(await c.f.viewer.gql(`query { ask(input: { question: "Do imports of old interviews fail?" }) { label } }`));
    const q = embeds().slice(before);
    expect(q).toHaveLength(1);
    expect((q[0]!.body as { input: string[] }).input).toEqual(['Do imports of old interviews fail?']);
  });
});
