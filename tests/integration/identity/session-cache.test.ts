import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { signUpConfirmed, startIdentityServer, stopIdentityServer } from './support.ts';

/**
 * Signed-in requests do not read the session row each time; these tests show that sign-out and a
 * changed name still take effect at once, in the process that made the change and in another
 * process on the same database.
 */
describe('open sessions kept in memory', () => {
  let a: TestServer;
  let b: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server: a, mail } = await startIdentityServer());
    b = await startTestServer({ databaseUrl: a.fieldbook.config.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await stopIdentityServer({ server: a, mail });
  });

  const me = (server: TestServer, token: string) =>
    server.gql<{ me: { id: string; name: string } }>('{ me { id name } }', {}, { token });

  /** Another process hears of a change through NOTIFY, a moment later. */
  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    let value = await read();
    for (let i = 0; i < 50 && !ok(value); i++) {
      await new Promise((r) => setTimeout(r, 50));
      value = await read();
    }
    return value;
  }

  it('answers from memory while the session is open, with no session read per request', async () => {
    const session = await signUpConfirmed(a, mail);
    expect((await me(a, session.accessToken)).data?.me.id).toBe(session.user.id);
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    a.fieldbook.db.app.on('query', listen);
    try {
      for (let i = 0; i < 5; i++) expect((await me(a, session.accessToken)).data?.me.id).toBe(session.user.id);
    } finally {
      a.fieldbook.db.app.off('query', listen);
    }
    expect(queries.filter((sql) => sql.includes('sessions'))).toEqual([]);
  });

  it('ends a signed-out session at once here and in another process', async () => {
    const session = await signUpConfirmed(a, mail);
    expect((await me(a, session.accessToken)).data?.me.id).toBe(session.user.id);
    expect((await me(b, session.accessToken)).data?.me.id).toBe(session.user.id);

    const out = await a.gql('mutation { signOut }', {}, { token: session.accessToken });
    expect(out.errors).toBeUndefined();

    expect((await me(a, session.accessToken)).errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
    const there = await eventually(
      () => me(b, session.accessToken),
      (r) => r.errors !== undefined,
    );
    expect(there.errors?.[0]).toMatchObject({
      message: 'Your session has ended. Please sign in again.',
      extensions: { errorCode: 'UNAUTHENTICATED' },
    });
  });

  it('shows a changed name everywhere', async () => {
    const session = await signUpConfirmed(a, mail);
    expect((await me(b, session.accessToken)).data?.me.name).toBe('Ada Lovelace');
    const renamed = await a.gql(
      'mutation { updateProfile(name: "Ada King") { name } }',
      {},
      { token: session.accessToken },
    );
    expect(renamed.errors).toBeUndefined();
    expect((await me(a, session.accessToken)).data?.me.name).toBe('Ada King');
    const there = await eventually(
      () => me(b, session.accessToken),
      (r) => r.data?.me.name === 'Ada King',
    );
    expect(there.data?.me.name).toBe('Ada King');
  });
});
