import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  HASHING_TIMEOUT_MS,
  AUTH_FIELDS,
  STRONG_PASSWORD,
  errorOf,
  signIn,
  signInLimits,
  signUpConfirmed,
  uniqueEmail,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from './support.ts';

const WRONG = 'The email or password is not right.';

describe('sign-in', { timeout: HASHING_TIMEOUT_MS }, () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    // Limits high enough for the lock (10 wrong passwords) to be reached; sign-in-limits.test.ts tests them.
    ({ server, mail } = await startIdentityServer({
      signInLimits: signInLimits({
        perAccount: { limit: 100, windowSeconds: 900 },
        perAddress: { limit: 1000, windowSeconds: 900 },
      }),
    }));
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const userRow = (id: string) => server.fieldbook.db.owner('users').where({ id }).first();

  it('answers an unknown email and a wrong password with the same message', async () => {
    const { user } = await signUpConfirmed(server, mail);
    const unknown = errorOf(await signIn(server, uniqueEmail('nobody'), STRONG_PASSWORD));
    const wrong = errorOf(await signIn(server, user.email, 'Wrong-Password-1'));
    expect(unknown.message).toBe(WRONG);
    expect(wrong.message).toBe(WRONG);
    expect(unknown.extensions?.errorCode).toBe(wrong.extensions?.errorCode);
    expect((await userRow(user.id)).failed_login_count).toBe(1);
  });

  it('resets the failure count after a successful sign-in', async () => {
    const { user } = await signUpConfirmed(server, mail);
    await signIn(server, user.email, 'Wrong-Password-1');
    await signIn(server, user.email, 'Wrong-Password-2');
    expect((await userRow(user.id)).failed_login_count).toBe(2);
    expect((await signIn(server, user.email, STRONG_PASSWORD)).errors).toBeUndefined();
    expect((await userRow(user.id)).failed_login_count).toBe(0);
  });

  it('locks the account after 10 wrong passwords, notifies in the app and by mail, and the unlock link opens it again', async () => {
    const session = await signUpConfirmed(server, mail);
    const { email, id } = session.user;
    for (let i = 1; i < 10; i++)
      expect(errorOf(await signIn(server, email, `Wrong-Password-${i}`)).message).toBe(WRONG);
    // The caller cannot tell a lock from a wrong password: the same answer, even for the right one.
    const tenth = errorOf(await signIn(server, email, 'Wrong-Password-10'));
    expect(tenth).toMatchObject({ message: WRONG, extensions: { errorCode: 'UNAUTHENTICATED' } });
    expect((await userRow(id)).locked_at).toBeInstanceOf(Date);
    const right = errorOf(await signIn(server, email, STRONG_PASSWORD));
    expect(right).toMatchObject({ message: WRONG, extensions: { errorCode: 'UNAUTHENTICATED' } });

    const notifications = await server.gql<{
      notifications: Array<{ id: string; type: string; read: boolean; payload: { attempts: number } }>;
    }>('{ notifications { id type read payload } }', {}, { token: session.accessToken });
    expect(notifications.data!.notifications).toEqual([
      expect.objectContaining({ type: 'account_locked', read: false, payload: { attempts: 10 } }),
    ]);
    const stored = await server.fieldbook.db.owner('notifications').where({ user_id: id });
    expect(stored).toHaveLength(1);
    expect(stored[0].workspace_id).toBeNull();

    const lockedMail = await mail.waitForMail(email, (m) => m.subject === 'Your Fieldbook account is locked');
    expect(lockedMail.text).toContain('10 failed sign-in attempts');
    const token = mail.linkIn(lockedMail, 'http://localhost:3000/auth/unlock?token=').searchParams.get('token');
    const unlocked = await server.gql<{ unlockAccount: boolean }>(
      'mutation($t: String!) { unlockAccount(token: $t) }',
      { t: token },
    );
    expect(unlocked.data!.unlockAccount).toBe(true);
    expect(await userRow(id)).toMatchObject({ locked_at: null, failed_login_count: 0 });
    expect((await signIn(server, email, STRONG_PASSWORD)).errors).toBeUndefined();

    const reused = errorOf(await server.gql('mutation($t: String!) { unlockAccount(token: $t) }', { t: token }));
    expect(reused.message).toBe('This unlock link was already used. Please request a new one.');

    const read = await server.gql<{ markNotificationsRead: number }>(
      'mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) }',
      { ids: [notifications.data!.notifications[0]!.id] },
      { token: session.accessToken },
    );
    expect(read.data!.markNotificationsRead).toBe(1);
  });

  it('mails a new unlock link on request only while the account is locked', async () => {
    const { user } = await signUpConfirmed(server, mail);
    expect((await server.gql('mutation($e: String!) { requestUnlock(email: $e) }', { e: user.email })).data).toEqual({
      requestUnlock: true,
    });
    await server.fieldbook.db.owner('users').where({ id: user.id }).update({ locked_at: new Date() });
    expect((await server.gql('mutation($e: String!) { requestUnlock(email: $e) }', { e: user.email })).data).toEqual({
      requestUnlock: true,
    });
    const message = await mail.waitForMail(user.email, (m) => m.subject === 'Unlock your Fieldbook account');
    const token = mail.linkIn(message, 'http://localhost:3000/auth/unlock').searchParams.get('token');
    await server.gql('mutation($t: String!) { unlockAccount(token: $t) }', { t: token });
    expect((await userRow(user.id)).locked_at).toBeNull();
    // Only one unlock mail went out: none for the request made while unlocked.
    expect(mail.received.filter((m) => m.to.includes(user.email) && m.subject.startsWith('Unlock'))).toHaveLength(1);
  });

  it('resets a password by mailed link: the new one works, the account unlocks and old sessions end', async () => {
    const session = await signUpConfirmed(server, mail);
    const { email, id } = session.user;
    await server.fieldbook.db.owner('users').where({ id }).update({ locked_at: new Date(), failed_login_count: 10 });
    const asked = await server.gql('mutation($e: String!) { requestPasswordReset(email: $e) }', { e: email });
    expect(asked.data).toEqual({ requestPasswordReset: true });
    const link = mail.linkIn(
      await mail.waitForMail(email, (m) => m.subject === 'Reset your Fieldbook password'),
      'http://localhost:3000/auth/reset-password?token=',
    );
    const token = link.searchParams.get('token')!;
    const stored = await server.fieldbook.db
      .owner('email_challenges')
      .where({ email, purpose: 'reset_password' })
      .first();
    expect(stored.secret_hash).not.toBe(token);

    const RESET = `mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) { ${AUTH_FIELDS} } }`;
    const weak = errorOf(await server.gql(RESET, { t: token, p: 'weak' }));
    expect(weak.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'password' });

    const newPassword = 'Another-Strong-Pass-7';
    const reset = await server.gql<{ resetPassword: AuthPayload }>(RESET, { t: token, p: newPassword });
    expect(reset.errors).toBeUndefined();
    expect(await userRow(id)).toMatchObject({ locked_at: null, failed_login_count: 0 });

    const old = await server.gql('{ me { id } }', {}, { token: session.accessToken });
    expect(errorOf(old).extensions?.errorCode).toBe('UNAUTHENTICATED');
    expect(errorOf(await signIn(server, email, STRONG_PASSWORD)).message).toBe(WRONG);
    expect((await signIn(server, email, newPassword)).errors).toBeUndefined();
    expect(errorOf(await server.gql(RESET, { t: token, p: newPassword })).message).toBe(
      'This password reset link was already used. Please request a new one.',
    );
  });

  it('answers a reset request for an unknown email with true and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    expect((await server.gql('mutation($e: String!) { requestPasswordReset(email: $e) }', { e: email })).data).toEqual({
      requestPasswordReset: true,
    });
    await expect(mail.waitForMail(email, () => true, 500)).rejects.toThrow(/No mail/);
  });

  it('signs in once with a magic link valid for 15 minutes', async () => {
    const { user } = await signUpConfirmed(server, mail);
    await server.gql('mutation($e: String!) { requestMagicLink(email: $e) }', { e: user.email });
    const link = mail.linkIn(
      await mail.waitForMail(user.email, (m) => m.subject === 'Your Fieldbook sign-in link'),
      'http://localhost:3000/auth/magic-login?token=',
    );
    const row = await server.fieldbook.db
      .owner('email_challenges')
      .where({ email: user.email, purpose: 'magic_login' })
      .first();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(15 * 60 * 1000);
    const LOGIN = `mutation($t: String!) { magicLogin(token: $t) { ${AUTH_FIELDS} } }`;
    const first = await server.gql<{ magicLogin: AuthPayload }>(LOGIN, { t: link.searchParams.get('token') });
    expect(first.data!.magicLogin.user.id).toBe(user.id);
    const second = errorOf(await server.gql(LOGIN, { t: link.searchParams.get('token') }));
    expect(second).toMatchObject({
      message: 'This sign-in link was already used. Please request a new one.',
      extensions: { errorCode: 'BAD_USER_INPUT' },
    });
  });

  it('refuses an expired magic link', async () => {
    const { user } = await signUpConfirmed(server, mail);
    await server.gql('mutation($e: String!) { requestMagicLink(email: $e) }', { e: user.email });
    const link = mail.linkIn(
      await mail.waitForMail(user.email, (m) => m.subject === 'Your Fieldbook sign-in link'),
      'http://localhost:3000/auth/magic-login',
    );
    await server.fieldbook.db
      .owner('email_challenges')
      .where({ email: user.email, purpose: 'magic_login' })
      .update({ expires_at: new Date(Date.now() - 1) });
    const res = errorOf(
      await server.gql(`mutation($t: String!) { magicLogin(token: $t) { accessToken } }`, {
        t: link.searchParams.get('token'),
      }),
    );
    expect(res.message).toBe('This sign-in link has expired. Please request a new one.');
  });

  it('updates the name within 1 to 100 characters', async () => {
    const session = await signUpConfirmed(server, mail);
    const UPDATE = 'mutation($n: String!) { updateProfile(name: $n) { name } }';
    const ok = await server.gql(UPDATE, { n: '  Ada King  ' }, { token: session.accessToken });
    expect(ok.data).toEqual({ updateProfile: { name: 'Ada King' } });
    const long = errorOf(await server.gql(UPDATE, { n: 'x'.repeat(101) }, { token: session.accessToken }));
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'name' });
    expect((await userRow(session.user.id)).name).toBe('Ada King');
    expect(errorOf(await server.gql(UPDATE, { n: 'Someone' })).extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('changes the password only with the current one, and ends the other sessions', async () => {
    const session = await signUpConfirmed(server, mail);
    const other = (await signIn(server, session.user.email, STRONG_PASSWORD)).data!.signIn;
    const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
    const wrong = errorOf(
      await server.gql(CHANGE, { c: 'Not-The-Password-1', n: 'Brand-New-Pass-99' }, { token: session.accessToken }),
    );
    expect(wrong.extensions).toMatchObject({ field: 'currentPassword' });
    const weak = errorOf(await server.gql(CHANGE, { c: STRONG_PASSWORD, n: 'short' }, { token: session.accessToken }));
    expect(weak.extensions).toMatchObject({ field: 'newPassword' });
    const ok = await server.gql(CHANGE, { c: STRONG_PASSWORD, n: 'Brand-New-Pass-99' }, { token: session.accessToken });
    expect(ok.data).toEqual({ changePassword: true });
    expect((await server.gql('{ me { id } }', {}, { token: session.accessToken })).errors).toBeUndefined();
    expect(errorOf(await server.gql('{ me { id } }', {}, { token: other.accessToken })).extensions?.errorCode).toBe(
      'UNAUTHENTICATED',
    );
    expect((await signIn(server, session.user.email, 'Brand-New-Pass-99')).errors).toBeUndefined();
  });
  it('lets a locked-out owner in with a one-time code or a sign-in link, which lift the lock', async () => {
    const { user } = await signUpConfirmed(server, mail);
    await server.fieldbook.db
      .owner('users')
      .where({ id: user.id })
      .update({ locked_at: new Date(), failed_login_count: 10 });
    expect(errorOf(await signIn(server, user.email, STRONG_PASSWORD)).message).toBe(WRONG);

    const sent = await server.gql<{ sendConfirmationEmail: { codeChallenge: string } }>(
      'mutation($i: SendConfirmationEmailInput!) { sendConfirmationEmail(input: $i) { codeChallenge } }',
      { i: { email: user.email, recaptchaToken: 't', useOneTimeCodeFlow: true } },
    );
    const codeMail = await mail.waitForMail(user.email, (m) => m.subject.startsWith('Your Fieldbook sign-in code'));
    const code = /(\d{6})/.exec(codeMail.subject)![1];
    const confirmed = await server.gql<{ confirmEmail: AuthPayload }>(
      `mutation($c: ID!, $code: String!) { confirmEmail(input: { method: ONE_TIME_CODE, codeChallenge: $c, code: $code }) { ${AUTH_FIELDS} } }`,
      { c: sent.data!.sendConfirmationEmail.codeChallenge, code },
    );
    expect(confirmed.data!.confirmEmail.user.id).toBe(user.id);
    expect(await userRow(user.id)).toMatchObject({ locked_at: null, failed_login_count: 0 });
    expect((await signIn(server, user.email, STRONG_PASSWORD)).errors).toBeUndefined();

    await server.fieldbook.db
      .owner('users')
      .where({ id: user.id })
      .update({ locked_at: new Date(), failed_login_count: 10 });
    await server.gql('mutation($e: String!) { requestMagicLink(email: $e) }', { e: user.email });
    const link = mail.linkIn(
      await mail.waitForMail(user.email, (m) => m.subject === 'Your Fieldbook sign-in link'),
      'http://localhost:3000/auth/magic-login',
    );
    const magic = await server.gql<{ magicLogin: AuthPayload }>(
      `mutation($t: String!) { magicLogin(token: $t) { ${AUTH_FIELDS} } }`,
      { t: link.searchParams.get('token') },
    );
    expect(magic.data!.magicLogin.user.id).toBe(user.id);
    expect(await userRow(user.id)).toMatchObject({ locked_at: null, failed_login_count: 0 });
  });

  it('counts a wrong current password when changing it like a wrong sign-in, and refuses a common new one', async () => {
    const session = await signUpConfirmed(server, mail);
    const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
    const wrong = errorOf(
      await server.gql(CHANGE, { c: 'Not-The-Password-1', n: 'Brand-New-Pass-99' }, { token: session.accessToken }),
    );
    expect(wrong).toMatchObject({
      message: 'Your current password is not right.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'currentPassword' },
    });
    expect((await userRow(session.user.id)).failed_login_count).toBe(1);

    const common = errorOf(
      await server.gql(CHANGE, { c: STRONG_PASSWORD, n: 'Password123!' }, { token: session.accessToken }),
    );
    expect(common.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'newPassword' });
    expect(common.message).toMatch(/too common/);
    expect((await signIn(server, session.user.email, STRONG_PASSWORD)).errors).toBeUndefined();
  });

  it('counts a wrong password given to create a workspace by email like a wrong sign-in', async () => {
    const session = await signUpConfirmed(server, mail);
    const CREATE = 'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { workspace { id } } }';
    const input = { method: 'EMAIL', teamName: 'Checked Workspace', email: session.user.email };
    const wrong = errorOf(
      await server.gql(CREATE, { i: { ...input, password: 'Not-The-Password-1' } }, { token: session.accessToken }),
    );
    expect(wrong).toMatchObject({
      message: 'That password is not correct.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'password' },
    });
    expect((await userRow(session.user.id)).failed_login_count).toBe(1);
    expect(
      (await server.gql(CREATE, { i: { ...input, password: STRONG_PASSWORD } }, { token: session.accessToken })).errors,
    ).toBeUndefined();
    expect((await userRow(session.user.id)).failed_login_count).toBe(0);
  });
});
