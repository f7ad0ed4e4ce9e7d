import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, STRONG_PASSWORD } from './identity/support.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const SIGN_UP = 'mutation($input: SignUpInput!) { signUp(input: $input) { outcome } }';

/**
 * Text PostgreSQL cannot store (the NUL character, half of a surrogate pair) is refused at the
 * edge for every field of every operation: BAD_USER_INPUT naming the field, never an internal error.
 */
describe('text the database cannot store', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const input = (name: string) => ({ input: { email: uniqueEmail(), password: STRONG_PASSWORD, name } });

  it('refuses a NUL character in a variable, naming the field', async () => {
    const res = await server.gql(SIGN_UP, input('Ana\u0000Lee'));
    expect(res.errors?.[0]?.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.name' });
    expect(res.errors?.[0]?.message).toBe('input.name cannot contain the NUL character (\\u0000).');
  });

  it('refuses a lone surrogate in a variable, naming the field', async () => {
    for (const name of ['\ud800', 'Ana \udc00']) {
      const res = await server.gql(SIGN_UP, input(name));
      expect(res.errors?.[0]?.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.name' });
    }
  });

  it('refuses them in keys and list items of JSON values too', async () => {
    const res = await server.gql('query($v: JSON) { __typename }', { v: { list: ['fine', { ['k\u0000']: 1 }] } });
    expect(res.errors?.[0]?.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'v.list.1 (a key)' });
  });

  it('refuses a NUL written in the document itself, naming the argument', async () => {
    const res = await server.gql(
      `mutation { signUp(input: { email: "${uniqueEmail()}", password: "${STRONG_PASSWORD}", name: "Ana\\u0000" }) { outcome } }`,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.name' });
  });

  it('refuses input nested past the depth limit before walking it', async () => {
    // Rich text 20,000 levels deep, written out by hand (JSON.stringify itself runs out of stack).
    const deep = `${'{"type":"paragraph","content":['.repeat(20_000)}{"type":"text","text":"leaf"}${']}'.repeat(20_000)}`;
    const res = await fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"query":"query($v: JSON) { __typename }","variables":{"v":${deep}}}`,
    });
    const body = (await res.json()) as { errors?: Array<{ message: string; extensions: { errorCode: string } }> };
    expect(body.errors?.[0]?.extensions.errorCode).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toMatch(
      /^v\.content\.0\.content\.0.*… is nested more than 256 levels deep, the limit\.$/,
    );
  });

  it('keeps emoji and other well-formed text', async () => {
    const res = await server.gql<{ signUp: { outcome: string } }>(SIGN_UP, input('Ana 😀 Lee'));
    expect(res.errors).toBeUndefined();
  });
});
