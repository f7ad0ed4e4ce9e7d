import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateQuotes, loadQuoteCorpus, quoteEvaluationLines, type Call } from '../../../bench/quotes/evaluate.ts';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture, type Gql } from '../research/content-support.ts';
import { startAiServer } from './corpus.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;

const call =
  (gql: Gql): Call =>
  async <T>(query: string, variables: Record<string, unknown> = {}) =>
    ok(await gql<T>(query, variables)) as T;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAiServer(aiConfig(fake)));
  f = await contentFixture(server, mail, ['CONTRIBUTOR']);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

describe('quote evaluation (the bench’s, at a small size)', () => {
  it('shows every verified quote and no other, of every kind, and counts what it dropped', async () => {
    const corpus = await loadQuoteCorpus(call(f.admin));
    const e = await evaluateQuotes({ asker: call(f.contributor.gql), fake, corpus, asks: 1, summaryRounds: 1 });
    const report = quoteEvaluationLines(e).join('\n');
    // Every kind was tried.
    for (const k of e.kinds) expect(k.shown + k.dropped, `${k.kind}\n${report}`).toBeGreaterThan(0);
    expect(e.unverifiedShown, report).toBe(0);
    expect(e.verifiedDropped, report).toBe(0);
    expect(e.miscounted, report).toBe(0);
  }, 180_000);
});
