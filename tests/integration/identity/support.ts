import { expect } from 'vitest';
import { loadConfig, type Config } from '../../../core/src/config.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { startTestServer, type GqlResult, type TestServer } from '../../support/server.ts';

/** The AuthPayload fields the identity tests read. */
export const AUTH_FIELDS = `accessToken refreshToken expiresAt teamId
  user { id email name emailConfirmed hasPassword }
  availableTeams { id type subdomain name inviteId invitedBy }`;

export interface AuthPayload {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  teamId: string | null;
  user: { id: string; email: string; name: string; emailConfirmed: boolean; hasPassword: boolean };
  availableTeams: Array<{
    id: string;
    type: string;
    subdomain: string;
    name: string;
    inviteId: string | null;
    invitedBy: string | null;
  }>;
}

export const STRONG_PASSWORD = 'Correct-Horse-42';

/** Tests that hash several passwords (128 MiB of scrypt each) get this long on a busy machine. */
export const HASHING_TIMEOUT_MS = 120_000;

let counter = 0;
/** A fresh address per call, so tests in one file never share an account. */
export const uniqueEmail = (label = 'person'): string => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

/** The error of a GraphQL answer, asserting there is exactly one. */
export function errorOf(res: GqlResult<unknown>) {
  expect(res.errors, JSON.stringify(res.data)).toHaveLength(1);
  return res.errors![0]!;
}

/** Signs up with a password and confirms through the link that arrives by mail; returns the session. */
export async function signUpConfirmed(
  server: TestServer,
  mail: TestMailServer,
  email = uniqueEmail(),
  password = STRONG_PASSWORD,
): Promise<AuthPayload> {
  const up = await server.gql(`mutation($input: SignUpInput!) { signUp(input: $input) { outcome } }`, {
    input: { email, password, name: 'Ada Lovelace' },
  });
  expect(up.errors).toBeUndefined();
  const message = await mail.waitForMail(email, (m) => m.subject.includes('Confirm'));
  const token = mail.linkIn(message, 'http://localhost:3000/auth/confirm-email').searchParams.get('token');
  const confirmed = await server.gql<{ confirmEmail: AuthPayload }>(
    `mutation($token: String!) { confirmEmail(input: { method: EMAIL, token: $token }) { ${AUTH_FIELDS} } }`,
    { token },
  );
  expect(confirmed.errors).toBeUndefined();
  return confirmed.data!.confirmEmail;
}

export async function signIn(
  server: TestServer,
  email: string,
  password: string,
): Promise<GqlResult<{ signIn: AuthPayload }>> {
  return server.gql<{ signIn: AuthPayload }>(
    `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { ${AUTH_FIELDS} } }`,
    {
      e: email,
      p: password,
    },
  );
}

/** A Fieldbook that mails through a real local SMTP server, for one test file. */
export async function startIdentityServer(
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; mail: TestMailServer }> {
  const mail = await startMailServer();
  const server = await startTestServer({ smtpUrl: mail.url, ...overrides });
  return { server, mail };
}

export async function stopIdentityServer(env: { server?: TestServer; mail?: TestMailServer }): Promise<void> {
  await env.server?.close();
  await env.mail?.close();
}

/** Sign-in limits for a test server: the defaults, with some replaced. */
export function signInLimits(over: Partial<Config['signInLimits']>): Config['signInLimits'] {
  return { ...loadConfig({}, { secretKey: 'x'.repeat(32) }).signInLimits, ...over };
}
