import { describe, expect, it } from 'vitest';
import { GraphQLRequestError, NetworkError, SessionExpiredError, describeError } from './errors.ts';
import { createGraphQLClient, type SessionAuth } from './graphql-client.ts';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

/** A fetch that answers from a script and records every request it was sent. */
function scriptedFetch(replies: Reply[]) {
  const calls: Array<{ url: string; headers: Record<string, string>; body: { query: string; variables: unknown } }> =
    [];
  const fn = (async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) });
    const reply = replies.shift();
    if (!reply) throw new Error('no scripted reply left');
    if (reply instanceof Error) throw reply;
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  }) as unknown as typeof fetch;
  return { fn, calls };
}

const ok = (data: unknown, headers?: Record<string, string>): Reply => ({
  status: 200,
  body: { data },
  ...(headers ? { headers } : {}),
});
const serverError: Reply = {
  status: 500,
  body: { errors: [{ message: 'boom', extensions: { errorCode: 'INTERNAL_SERVER_ERROR' } }] },
};

function setup(replies: Reply[], extra: Partial<Parameters<typeof createGraphQLClient>[0]> = {}) {
  const f = scriptedFetch(replies);
  const sleeps: number[] = [];
  const results: boolean[] = [];
  const client = createGraphQLClient({
    fetch: f.fn,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    onHttpResult: (okay) => results.push(okay),
    ...extra,
  });
  return { client, calls: f.calls, sleeps, results };
}

describe('GraphQL client', () => {
  it('retries a query failing with 5xx and succeeds when the server recovers', async () => {
    const { client, calls, sleeps, results } = setup([serverError, { status: 503, body: {} }, ok({ me: null })]);
    await expect(client.request('query { me { id } }')).resolves.toEqual({ me: null });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([300, 600]);
    expect(results).toEqual([false, false, true]);
  });

  it('gives up on a query after 5 attempts with the server’s error', async () => {
    const { client, calls, sleeps } = setup(Array.from({ length: 6 }, () => serverError));
    const err = await client.request('query { me { id } }').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphQLRequestError);
    expect((err as GraphQLRequestError).status).toBe(500);
    expect(calls).toHaveLength(5);
    expect(sleeps).toEqual([300, 600, 1200, 2000]);
  });

  it('never retries a mutation', async () => {
    const { client, calls, sleeps } = setup([serverError, ok({ signOut: true })]);
    await expect(client.request('mutation { signOut }')).rejects.toBeInstanceOf(GraphQLRequestError);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry client errors and keeps their human-readable message', async () => {
    const body = {
      data: null,
      errors: [
        {
          message: 'Enter a valid email address.',
          extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: true, field: 'email' },
        },
      ],
    };
    const { client, calls } = setup([{ status: 200, body }]);
    const err = (await client.request('query { x }').catch((e: unknown) => e)) as GraphQLRequestError;
    expect(calls).toHaveLength(1);
    expect(err.code).toBe('BAD_USER_INPUT');
    expect(err.field).toBe('email');
    expect(describeError(err).message).toBe('Enter a valid email address.');
  });

  it('hides messages not meant for people', () => {
    const err = new GraphQLRequestError(200, [
      {
        message: 'Cannot query field "x" on type "Query".',
        extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: false },
      },
    ]);
    expect(describeError(err).message).not.toContain('Cannot query field');
    expect(describeError(err).next).toMatch(/try again/i);
  });

  it('sends the bearer token, the workspace header and the release it learnt', async () => {
    const auth: SessionAuth = { accessToken: async () => 'tok-1', renew: async () => null, ended: () => {} };
    const { client, calls } = setup([ok({ a: 1 }, { 'x-fieldbook-release': 'r42' }), ok({ a: 2 })], {
      auth,
      workspace: () => 'ws-1',
    });
    await client.request('query { a }');
    await client.request('query { a }', { v: 1 });
    expect(calls[0]!.headers.authorization).toBe('Bearer tok-1');
    expect(calls[0]!.headers['x-fieldbook-workspace']).toBe('ws-1');
    expect(calls[0]!.headers['x-fieldbook-release']).toBeUndefined();
    expect(calls[1]!.headers['x-fieldbook-release']).toBe('r42');
    expect(calls[1]!.body.variables).toEqual({ v: 1 });
    expect(client.release).toBe('r42');
  });

  it('leaves the workspace header out when asked to', async () => {
    const { client, calls } = setup([ok({ a: 1 })], { workspace: () => 'ws-1' });
    await client.request('query { a }', {}, { workspace: false });
    expect(calls[0]!.headers['x-fieldbook-workspace']).toBeUndefined();
  });

  it('renews a refused token once and sends the request again', async () => {
    const renewed: string[] = [];
    const auth: SessionAuth = {
      accessToken: async () => 'old',
      renew: async () => (renewed.push('x'), 'new'),
      ended: () => {
        throw new Error('must not end');
      },
    };
    const expired = {
      status: 401,
      body: {
        errors: [
          {
            message: 'Your session has expired. Please sign in again.',
            extensions: { errorCode: 'UNAUTHENTICATED', humanReadable: true },
          },
        ],
      },
    };
    const { client, calls } = setup([expired, ok({ me: { id: '1' } })], { auth });
    await expect(client.request('mutation { updateProfile(name: "A") { id } }')).resolves.toEqual({ me: { id: '1' } });
    expect(renewed).toHaveLength(1);
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('ends the session when the token cannot be renewed', async () => {
    let endedWith = '';
    const auth: SessionAuth = {
      accessToken: async () => 'old',
      renew: async () => null,
      ended: (m) => void (endedWith = m),
    };
    const expired = {
      status: 401,
      body: {
        errors: [
          {
            message: 'Your session has expired. Please sign in again.',
            extensions: { errorCode: 'UNAUTHENTICATED', humanReadable: true },
          },
        ],
      },
    };
    const { client, calls } = setup([expired], { auth });
    await expect(client.request('query { me { id } }')).rejects.toBeInstanceOf(SessionExpiredError);
    expect(calls).toHaveLength(1);
    expect(endedWith).toMatch(/expired/);
  });

  it('does not treat a wrong password (sent without a token) as an ended session', async () => {
    const auth: SessionAuth = {
      accessToken: async () => null,
      renew: async () => 'x',
      ended: () => {
        throw new Error('must not end');
      },
    };
    const wrong = {
      status: 200,
      body: {
        data: null,
        errors: [
          {
            message: 'The email or password is not right.',
            extensions: { errorCode: 'UNAUTHENTICATED', humanReadable: true },
          },
        ],
      },
    };
    const { client } = setup([wrong], { auth });
    const err = (await client
      .request('mutation { signIn(email: "a", password: "b") { accessToken } }')
      .catch((e: unknown) => e)) as GraphQLRequestError;
    expect(err).toBeInstanceOf(GraphQLRequestError);
    expect(describeError(err).message).toBe('The email or password is not right.');
  });

  it('reports a network failure as such, without retrying it', async () => {
    const { client, calls, results } = setup([new TypeError('fetch failed')]);
    const err = await client.request('query { me { id } }').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(calls).toHaveLength(1);
    expect(results).toEqual([false]);
    expect(describeError(err).next).toMatch(/connection/);
  });
});
