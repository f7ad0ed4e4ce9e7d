import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/src/config.ts';
import { signUpConfirmed } from './identity/support.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startMailServer, type TestMailServer } from '../support/smtp.ts';

const SCHEMA = '{ __schema { queryType { name } } }';
const TYPE = '{ __type(name: "Query") { fields { name } } }';

describe('GraphQL introspection', () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({ smtpUrl: mail.url });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('is off for anonymous requests by default', async () => {
    for (const query of [SCHEMA, TYPE]) {
      const res = await server.gql(query);
      expect(res.data).toBeNull();
      expect(res.errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
      expect(res.errors?.[0]?.message).toMatch(/Sign in to read the schema/);
    }
    // __typename names a type without describing the schema; clients rely on it.
    expect((await server.gql<{ __typename: string }>('{ __typename }')).data?.__typename).toBe('Query');
  });

  it('stays on for signed-in people, so the schema stays browsable', async () => {
    const person = await signUpConfirmed(server, mail);
    // The query GraphiQL and code generators send, nesting `ofType` deep, within the depth limit.
    const res = await server.gql<IntrospectionQuery>(
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }),
      {},
      { token: person.accessToken },
    );
    expect(res.errors).toBeUndefined();
    expect(buildClientSchema(res.data!).getMutationType()?.getFields().signUp).toBeDefined();
    // The same document, anonymous again, is still refused (a validated document is not reused across audiences).
    expect((await server.gql(SCHEMA)).errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('is on for anonymous requests when the installation allows it', async () => {
    const open = await startTestServer({ anonymousIntrospection: true });
    try {
      const res = await open.gql<{ __schema: { queryType: { name: string } } }>(SCHEMA);
      expect(res.errors).toBeUndefined();
      expect(res.data?.__schema.queryType.name).toBe('Query');
    } finally {
      await open.close();
    }
  });

  it('reads GRAPHQL_INTROSPECTION, and is off by default unless NODE_ENV is development', () => {
    const config = (env: Record<string, string>) =>
      loadConfig(env, { secretKey: inject('secretKey') }).anonymousIntrospection;
    expect(config({})).toBe(false);
    expect(config({ NODE_ENV: 'production' })).toBe(false);
    expect(config({ NODE_ENV: 'development' })).toBe(true);
    expect(config({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' })).toBe(true);
    expect(config({ NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'false' })).toBe(false);
  });
});
