import type { BrowserEnvironment } from './fieldbook.ts';
import { PASSWORD } from './fixtures.ts';

/**
 * Direct GraphQL calls for setting up the people a test needs, so each test drives in the
 * browser only the flow it is about. Mails still go through the real SMTP server.
 */
export async function gql<T>(
  env: BrowserEnvironment,
  query: string,
  variables: Record<string, unknown> = {},
  opts: { token?: string; workspace?: string } = {},
): Promise<T> {
  const res = await fetch(`${env.url}/api/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.workspace ? { 'x-fieldbook-workspace': opts.workspace } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors?.length) throw new Error(`GraphQL failed: ${body.errors.map((e) => e.message).join('; ')}`);
  return body.data as T;
}

/** Signs up with the test password and confirms by the mailed link; returns the access token. */
export async function signUpByApi(env: BrowserEnvironment, email: string, name: string): Promise<string> {
  await gql(env, 'mutation($input: SignUpInput!) { signUp(input: $input) { outcome } }', {
    input: { email, password: PASSWORD, name },
  });
  const mail = await env.mail.waitForMail(email, (m) => m.subject.includes('Confirm'), 15_000);
  const token = env.mail.linkIn(mail, `${env.url}/auth/confirm-email`).searchParams.get('token');
  const { confirmEmail } = await gql<{ confirmEmail: { accessToken: string } }>(
    env,
    'mutation($t: String!) { confirmEmail(input: { method: EMAIL, token: $t }) { accessToken } }',
    { t: token },
  );
  return confirmEmail.accessToken;
}

export async function createWorkspaceByApi(
  env: BrowserEnvironment,
  token: string,
  teamName: string,
): Promise<{ id: string; name: string }> {
  const { createWorkspace } = await gql<{ createWorkspace: { workspace: { id: string; name: string } } }>(
    env,
    'mutation($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id name } } }',
    { input: { method: 'AUTH0', teamName } },
    { token },
  );
  return createWorkspace.workspace;
}

/** Invites `email` with `role` and has them sign up and accept through the mailed invite link. */
export async function addMemberByApi(
  env: BrowserEnvironment,
  admin: { token: string; workspaceId: string },
  email: string,
  role: 'VIEWER' | 'CONTRIBUTOR' | 'MANAGER',
): Promise<string> {
  await gql(
    env,
    'mutation($input: InviteMembersInput!) { inviteMembers(input: $input) { id } }',
    { input: { emails: [email], role } },
    { token: admin.token, workspace: admin.workspaceId },
  );
  const mail = await env.mail.waitForMail(email, (m) => m.subject.includes('invited you'), 15_000);
  const inviteToken = env.mail.linkIn(mail, `${env.url}/auth/accept-invite`).searchParams.get('token');
  const token = await signUpByApi(env, email, `Member ${role.toLowerCase()}`);
  await gql(env, 'mutation($t: String!) { acceptInvite(token: $t) { role } }', { t: inviteToken }, { token });
  return token;
}
