import { createServer } from 'node:net';

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The value below which `p` percent of the sorted samples lie (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** POSTs one GraphQL operation and returns its data, throwing with the first error's message. */
export async function graphql<T>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
  workspaceId?: string,
): Promise<T> {
  const res = await fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(workspaceId ? { 'x-fieldbook-workspace': workspaceId } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T | null; errors?: Array<{ message: string }> };
  if (body.errors?.length || !body.data) throw new Error(body.errors?.[0]?.message ?? `HTTP ${res.status}`);
  return body.data;
}

/**
 * Signs a new person up, confirms their email from the link in `mailbox` (where the bench's
 * Fieldbook delivers mail) and signs them in.
 */
export async function signUpResearcher(
  url: string,
  mailbox: ReadonlyArray<{ to: string; text: string }>,
  prefix: string,
  name = 'Bench Researcher',
): Promise<{ email: string; password: string; token: string }> {
  const email = `${prefix}-${Date.now()}@example.com`;
  const password = 'Bench-password-2026!';
  await graphql(url, 'mutation ($input: SignUpInput!) { signUp(input: $input) { user { id } } }', { input: { email, password, name } });
  const link = mailbox.filter((m) => m.to === email).at(-1)?.text.match(/token=([\w.~-]+)/)?.[1];
  if (link) await graphql(url, 'mutation ($token: String!) { confirmEmail(input: { method: EMAIL, token: $token }) { accessToken } }', { token: decodeURIComponent(link) });
  const signIn = 'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }';
  const token = (await graphql<{ signIn: { accessToken: string } }>(url, signIn, { email, password })).signIn.accessToken;
  return { email, password, token };
}
