import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('kernel', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The depth test below nests through introspection types, which anonymous requests may not read by default.
    server = await startTestServer({ anonymousIntrospection: true });
  });
  afterAll(() => server.close());

  it('answers /ping', async () => {
    const res = await fetch(`${server.url}/ping`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ extensions: { errorCode: string } }> };
    expect(body.errors[0]!.extensions.errorCode).toBe('BAD_USER_INPUT');
  });

  it('answers a body over 10 MB with 413', async () => {
    const res = await fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ release }', variables: { pad: 'x'.repeat(10_485_760) } }),
    });
    expect(res.status).toBe(413);
  });

  it('answers 413 to a streamed body that passes 10 MB without declaring its length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1 << 20));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 12 MiB in all, more than the limit; the server stops reading before the end.
        if (sent++ < 12) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(res.status).toBe(413);
  });

  it('rejects queries nested too deep or with too many aliases', async () => {
    // `ofType` chains lead to one object per level, so they do not count as depth; `fields { type }` does.
    const nest = (levels: number): string => (levels === 0 ? 'name' : `name fields { type { ${nest(levels - 1)} } }`);
    const shallow = await server.gql(
      `{ __type(name: "Query") { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } }`,
    );
    expect(shallow.errors?.[0]?.message).toBeUndefined();
    const deep = await server.gql(`{ __schema { types { ${nest(6)} } } }`);
    expect(deep.errors?.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/nested 14 levels deep; the limit is 12/),
    );
    expect(deep.errors?.every((e) => e.extensions?.errorCode === 'BAD_USER_INPUT')).toBe(true);
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: release`).join(' ');
    const res = await server.gql(`{ ${aliases} }`);
    expect(res.errors?.[0]?.message).toMatch(/31 aliases; the limit is 30/);
  });
  it('lets other sites frame embed pages and no other page', async () => {
    for (const path of ['/home', '/p/abcdefghijkl', '/ping', '/embedded', '/api/graphql']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('content-security-policy'), path).toBe("frame-ancestors 'self'");
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
    const embed = await fetch(`${server.url}/embed/highlights/00000000-0000-0000-0000-000000000000?token=abcdefghijkl`);
    expect(embed.headers.get('content-security-policy')).toBe('frame-ancestors *');
    expect(embed.headers.get('x-frame-options')).toBeNull();
  });
});
