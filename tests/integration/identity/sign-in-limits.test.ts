import type Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRYPT_COST } from '../../../core/src/identity/passwords.ts';
import { clientAddress } from '../../../core/src/identity/sign-in-limits/client-address.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  HASHING_TIMEOUT_MS,
  AUTH_FIELDS,
  STRONG_PASSWORD,
  signInLimits,
  signUpConfirmed,
  uniqueEmail,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from './support.ts';

const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { ${AUTH_FIELDS} } }`;
const WRONG = 'The email or password is not right.';

interface Answer {
  status: number;
  retryAfter: string | null;
  data: { signIn: AuthPayload } | null;
  errors?: Array<{ message: string; extensions: { errorCode: string; retryAfter?: number } }>;
}

/** A sign-in from a given client address (the test servers trust one proxy's X-Forwarded-For). */
async function signInFrom(server: TestServer, address: string, email: string, password: string): Promise<Answer> {
  const res = await fetch(`${server.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ query: SIGN_IN, variables: { e: email, p: password } }),
  });
  const body = (await res.json()) as Omit<Answer, 'status' | 'retryAfter'>;
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    data: body.data ?? null,
    errors: body.errors,
  };
}

const codeOf = (a: Answer) => a.errors?.[0]?.extensions.errorCode ?? 'OK';

// What these tests measure (hashes refused before they run, a slot held by a running hash, turns
// between clients) depends on a hash taking as long as in production: they hash at its cost.
const passwordHashCost = SCRYPT_COST;

describe('sign-in limits per client address and per email', { timeout: HASHING_TIMEOUT_MS }, () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer({
      trustProxy: 1,
      passwordHashCost,
      signInLimits: signInLimits({
        perAddress: { limit: 3, windowSeconds: 600 },
        perAccount: { limit: 3, windowSeconds: 600 },
      }),
    }));
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('refuses an address over its limit before hashing: 429, Retry-After, and when to try again', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (await signInFrom(server, '203.0.113.10', uniqueEmail('nobody'), STRONG_PASSWORD)).errors?.[0]?.message,
      ).toBe(WRONG);

    // Ten more at once: each would cost a 128 MiB scrypt of about a second; refused, they cost none.
    const started = performance.now();
    const refused = await Promise.all(
      Array.from({ length: 10 }, () => signInFrom(server, '203.0.113.10', uniqueEmail('nobody'), STRONG_PASSWORD)),
    );
    expect(performance.now() - started).toBeLessThan(3000);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.errors![0]!.extensions.errorCode).toBe('TOO_MANY_REQUESTS');
      expect(answer.errors![0]!.message).toMatch(
        /^Too many sign-in attempts\. Please try again in (10|9) minutes, or sign in with a code or link sent to your email\.$/,
      );
      const seconds = Number(answer.retryAfter);
      expect(seconds).toBeGreaterThan(500);
      expect(seconds).toBeLessThanOrEqual(600);
      expect(answer.errors![0]!.extensions.retryAfter).toBe(seconds);
    }

    // Someone else, at another address, signs in as usual.
    const person = await signUpConfirmed(server, mail);
    const other = await signInFrom(server, '198.51.100.20', person.user.email, STRONG_PASSWORD);
    expect(other.errors).toBeUndefined();
    expect(other.data!.signIn.user.id).toBe(person.user.id);
  });

  it('gives successful sign-ins back, so signing in often is never limited', async () => {
    const person = await signUpConfirmed(server, mail);
    for (let i = 0; i < 4; i++)
      expect((await signInFrom(server, '198.51.100.30', person.user.email, STRONG_PASSWORD)).errors).toBeUndefined();
  });

  it('limits attempts per email from any address, the same for an unknown email, and the owner still gets in by emailed code', async () => {
    const owner = await signUpConfirmed(server, mail);
    const ghost = uniqueEmail('ghost');
    for (let i = 1; i <= 3; i++) {
      expect(
        (await signInFrom(server, `192.0.2.${i}`, owner.user.email, `Wrong-Password-${i}`)).errors![0]!.message,
      ).toBe(WRONG);
      expect((await signInFrom(server, `192.0.2.${i}`, ghost, `Wrong-Password-${i}`)).errors![0]!.message).toBe(WRONG);
    }
    // Even the right password is refused now, from a fresh address, exactly as for an email without an account.
    const ownerRefused = await signInFrom(server, '192.0.2.50', owner.user.email, STRONG_PASSWORD);
    const ghostRefused = await signInFrom(server, '192.0.2.51', ghost, STRONG_PASSWORD);
    expect([ownerRefused.status, codeOf(ownerRefused), ownerRefused.errors![0]!.message]).toEqual([
      429,
      'TOO_MANY_REQUESTS',
      ghostRefused.errors![0]!.message,
    ]);
    expect([ghostRefused.status, codeOf(ghostRefused)]).toEqual([429, 'TOO_MANY_REQUESTS']);

    const sent = await server.gql<{ sendConfirmationEmail: { codeChallenge: string } }>(
      'mutation($i: SendConfirmationEmailInput!) { sendConfirmationEmail(input: $i) { codeChallenge } }',
      { i: { email: owner.user.email, recaptchaToken: 't', useOneTimeCodeFlow: true } },
    );
    const code = /(\d{6})/.exec(
      (await mail.waitForMail(owner.user.email, (m) => m.subject.startsWith('Your Fieldbook sign-in code'))).subject,
    )![1];
    const confirmed = await server.gql<{ confirmEmail: AuthPayload }>(
      `mutation($c: ID!, $code: String!) { confirmEmail(input: { method: ONE_TIME_CODE, codeChallenge: $c, code: $code }) { ${AUTH_FIELDS} } }`,
      { c: sent.data!.sendConfirmationEmail.codeChallenge, code },
    );
    expect(confirmed.data!.confirmEmail.user.id).toBe(owner.user.id);
    // Proving the mailbox starts the email's count afresh: the password works again.
    expect((await signInFrom(server, '192.0.2.52', owner.user.email, STRONG_PASSWORD)).errors).toBeUndefined();
    expect(codeOf(await signInFrom(server, '192.0.2.53', ghost, STRONG_PASSWORD))).toBe('TOO_MANY_REQUESTS');
  });

  it('keeps a flood of anonymous sign-ins from starving a real person’s sign-in', async () => {
    const person = await signUpConfirmed(server, mail);
    const flood = (async () => {
      const answers: Answer[] = [];
      for (let wave = 0; wave < 2; wave++) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, () =>
              signInFrom(server, '203.0.113.99', uniqueEmail('flood'), 'Flood-Password-1'),
            ),
          )),
        );
      }
      return answers;
    })();
    const started = performance.now();
    const real = await signInFrom(server, '198.51.100.77', person.user.email, STRONG_PASSWORD);
    const took = performance.now() - started;
    const answers = await flood;
    expect(real.errors).toBeUndefined();
    // 40 hashes at about a second each, two at a time, took the real sign-in up to 50 s.
    expect(took).toBeLessThan(20_000);
    expect(answers.filter((a) => codeOf(a) === 'TOO_MANY_REQUESTS')).toHaveLength(37);
  });
});

describe('sign-in limits and client addresses', { timeout: HASHING_TIMEOUT_MS }, () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    // No trusted proxy (the default), and a hash slot that cannot wait.
    ({ server, mail } = await startIdentityServer({
      signInLimits: signInLimits({
        perAddress: { limit: 2, windowSeconds: 600 },
        hashConcurrency: 1,
        hashQueueSeconds: 0.05,
      }),
    }));
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('does not believe an X-Forwarded-For written by the client when no proxy is trusted', async () => {
    expect((await signInFrom(server, '203.0.113.1', uniqueEmail('a'), STRONG_PASSWORD)).errors![0]!.message).toBe(
      WRONG,
    );
    expect((await signInFrom(server, '203.0.113.2', uniqueEmail('b'), STRONG_PASSWORD)).errors![0]!.message).toBe(
      WRONG,
    );
    expect(codeOf(await signInFrom(server, '203.0.113.3', uniqueEmail('c'), STRONG_PASSWORD))).toBe(
      'TOO_MANY_REQUESTS',
    );
  });

  it('reads the client address from the socket, or from the entry the trusted proxies added', () => {
    const koa = (forwarded: string | null, peer = '::ffff:10.0.0.5') =>
      ({
        req: { socket: { remoteAddress: peer } },
        get: (h: string) => (h === 'x-forwarded-for' && forwarded) || '',
      }) as unknown as Koa.Context;
    expect(clientAddress(koa('198.51.100.1'), 0)).toBe('10.0.0.5');
    expect(clientAddress(koa('6.6.6.6, 198.51.100.1'), 1)).toBe('198.51.100.1');
    expect(clientAddress(koa('6.6.6.6, 198.51.100.1, 10.0.0.2'), 2)).toBe('198.51.100.1');
    expect(clientAddress(koa(null), 1)).toBe('10.0.0.5');
  });
});

describe('password hashing under load', { timeout: HASHING_TIMEOUT_MS }, () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer({
      trustProxy: 1,
      passwordHashCost,
      signInLimits: signInLimits({ hashConcurrency: 1, hashQueueSeconds: 0.05 }),
    }));
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('runs only so many hashes at once; one that cannot get a slot in time hears to try again shortly', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        signInFrom(server, `198.51.100.${i + 1}`, uniqueEmail('busy'), STRONG_PASSWORD),
      ),
    );
    const busy = answers.filter((a) => codeOf(a) === 'TOO_MANY_REQUESTS');
    expect(answers.filter((a) => codeOf(a) === 'UNAUTHENTICATED').length).toBeGreaterThanOrEqual(1);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const answer of busy) {
      expect(answer).toMatchObject({ status: 429, retryAfter: '5' });
      expect(answer.errors![0]!.message).toBe('Sign-in is very busy right now. Please try again in a few seconds.');
    }
  });
});

describe('password hashing, fair between clients', { timeout: HASHING_TIMEOUT_MS }, () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer({
      trustProxy: 1,
      passwordHashCost,
      signInLimits: signInLimits({
        perAddress: { limit: 100, windowSeconds: 600 },
        hashConcurrency: 1,
        hashQueueSeconds: 120,
      }),
    }));
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const attemptsFrom = async (address: string) =>
    (
      (await server.fieldbook.db
        .owner('sign_in_limits')
        .where({ key: `address:${address}` })
        .first()) as { attempts: number } | undefined
    )?.attempts ?? 0;

  it('gives a hash slot to each waiting address in turn, so one address’s burst does not hold up another', async () => {
    const finished: string[] = [];
    const attempt = (label: string, address: string) =>
      signInFrom(server, address, uniqueEmail('turn'), STRONG_PASSWORD).then((answer) => {
        finished.push(label);
        return answer;
      });
    const burst = ['A1', 'A2', 'A3', 'A4'].map((label) => attempt(label, '203.0.113.200'));
    // All four have been counted (and so are hashing or waiting) before the other address asks.
    await expect.poll(() => attemptsFrom('203.0.113.200'), { timeout: 20_000 }).toBe(4);
    const other = attempt('B', '198.51.100.200');
    const answers = await Promise.all([...burst, other]);
    expect(answers.map(codeOf)).toEqual(Array(5).fill('UNAUTHENTICATED'));
    // In arrival order B would be last; in turns it follows the burst's second hash.
    expect(finished.slice(finished.indexOf('B') + 1)).toHaveLength(2);
  });
});
