import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Documents built to make the endpoint work hard (exponential fragments, megabytes of arguments,
 * huge names) are refused quickly, with a short answer, while other requests go on being served.
 */
describe('GraphQL document limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Posts `query` and, at the same moment, asks /ping; both must be answered quickly. */
  async function refusedQuickly(
    query: string,
  ): Promise<{ message: string; bodyLength: number; errorCode: string | undefined }> {
    const started = performance.now();
    const [answer, ping] = await Promise.all([
      fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query }),
      }).then(async (res) => ({ status: res.status, text: await res.text(), at: performance.now() })),
      fetch(`${server.url}/ping`).then(async (res) => ({ status: res.status, at: performance.now() })),
    ]);
    expect(ping.status).toBe(200);
    expect(ping.at - started).toBeLessThan(2000);
    expect(answer.at - started).toBeLessThan(2000);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.text) as { errors: Array<{ message: string; extensions?: { errorCode?: string } }> };
    return {
      message: body.errors[0]!.message,
      bodyLength: answer.text.length,
      errorCode: body.errors[0]!.extensions?.errorCode,
    };
  }

  it('refuses fragments that each spread the next one twice, costing each fragment once', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `F${i}`);
    const fragments = names.map((name, i) =>
      i === names.length - 1
        ? `fragment ${name} on Query { release }`
        : `fragment ${name} on Query { ...${names[i + 1]} ...${names[i + 1]} }`,
    );
    const query = `query { ...F0 } ${fragments.join(' ')}`;
    expect(query.length).toBeLessThan(1200);
    const refused = await refusedQuickly(query);
    expect(refused.message).toMatch(/more than 5000 fields/);
    expect(refused.errorCode).toBe('BAD_USER_INPUT');
  });

  it('still answers a document that spreads fragments within the limits', async () => {
    const res = await server.gql<{ release: string }>(
      'query { ...A ...B } fragment A on Query { ...B release } fragment B on Query { release }',
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.release).toBeTruthy();
  });

  it('refuses a megabyte document of repeated arguments without parsing it', async () => {
    const args = Array.from({ length: 200_000 }, () => 'a: 1').join(', ');
    const refused = await refusedQuickly(`{ release(${args}) }`);
    expect(refused.message).toMatch(/document is longer than/i);
    expect(refused.bodyLength).toBeLessThan(2000);
  });

  it('refuses a 4 MB document of repeated arguments quickly', async () => {
    const args = 'a: 1, '.repeat(700_000);
    const refused = await refusedQuickly(`{ release(${args}) }`);
    expect(refused.errorCode).toBe('BAD_USER_INPUT');
    expect(refused.bodyLength).toBeLessThan(2000);
  });

  it('refuses a short document with too many tokens', async () => {
    const args = 'a:1 '.repeat(15_000);
    expect(args.length).toBeLessThan(100_000);
    const refused = await refusedQuickly(`{ release(${args}) }`);
    expect(refused.message).toBe('The GraphQL document has more than 10000 tokens, the limit.');
    expect(refused.errorCode).toBe('BAD_USER_INPUT');
  });

  it('refuses values nested thousands deep within the token limit, saying so', async () => {
    const refused = await refusedQuickly(`{ release(a: ${'['.repeat(4990)}${']'.repeat(4990)}) }`);
    expect(refused.message).toBe('The GraphQL document nests values too deeply.');
    expect(refused.errorCode).toBe('BAD_USER_INPUT');
  });

  it('does not echo a 9 MB unknown field name back', async () => {
    const refused = await refusedQuickly(`{ ${'x'.repeat(9_000_000)} }`);
    expect(refused.bodyLength).toBeLessThan(2000);
  });

  it('cuts the unknown field name it echoes in a document under the length bound', async () => {
    const refused = await refusedQuickly(`{ ${'y'.repeat(60_000)} }`);
    expect(refused.message).toMatch(/Cannot query field/);
    expect(refused.bodyLength).toBeLessThan(2000);
  });
});
