import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../core/src/identity/passwords.ts';
import { TEST_PASSWORD_HASH_COST } from '../../support/password-cost.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  HASHING_TIMEOUT_MS,
  AUTH_FIELDS,
  STRONG_PASSWORD,
  errorOf,
  signIn,
  signUpConfirmed,
  uniqueEmail,
  type AuthPayload,
  startIdentityServer,
  stopIdentityServer,
} from './support.ts';

const SIGN_UP = `mutation($input: SignUpInput!) { signUp(input: $input) { outcome user { id email emailConfirmed hasPassword } } }`;
const SEND = `mutation($input: SendConfirmationEmailInput!) {
  sendConfirmationEmail(input: $input) { success message outcome teamId codeChallenge } }`;
const CONFIRM_CODE = `mutation($challenge: ID!, $code: String!) {
  confirmEmail(input: { method: ONE_TIME_CODE, codeChallenge: $challenge, code: $code }) { ${AUTH_FIELDS} } }`;

describe('sign-up', { timeout: HASHING_TIMEOUT_MS }, () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const userCount = async (email: string) =>
    Number(
      (
        await server.fieldbook.db.owner('users').whereRaw('lower(email) = ?', [email.toLowerCase()]).count({ n: '*' })
      )[0]!.n,
    );

  it('signs up, mails a confirmation link over SMTP, and confirming it signs the person in', async () => {
    const email = uniqueEmail('Ada');
    const up = await server.gql<{
      signUp: { outcome: string; user: { emailConfirmed: boolean; email: string; hasPassword: boolean } };
    }>(SIGN_UP, {
      input: { email, password: STRONG_PASSWORD, name: 'Ada Lovelace' },
    });
    expect(up.errors).toBeUndefined();
    expect(up.data!.signUp).toMatchObject({
      outcome: 'EMAIL_SENT',
      user: { email: email.toLowerCase(), emailConfirmed: false, hasPassword: true },
    });

    // Unconfirmed: the password alone does not sign in yet.
    const early = await signIn(server, email, STRONG_PASSWORD);
    expect(errorOf(early).message).toMatch(/confirm your email/i);

    const message = await mail.waitForMail(
      email.toLowerCase(),
      (m) => m.subject === 'Confirm your email address for Fieldbook',
    );
    expect(message.text).toContain('valid for 24 hours');
    const token = mail.linkIn(message, 'http://localhost:3000/auth/confirm-email?token=').searchParams.get('token')!;
    const confirmed = await server.gql<{ confirmEmail: AuthPayload }>(
      `mutation($t: String!) { confirmEmail(input: { method: EMAIL, token: $t }) { ${AUTH_FIELDS} } }`,
      { t: token },
    );
    expect(confirmed.errors).toBeUndefined();
    const payload = confirmed.data!.confirmEmail;
    expect(payload.user).toMatchObject({ email: email.toLowerCase(), emailConfirmed: true, hasPassword: true });
    expect(payload.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const me = await server.gql<{ me: { email: string } }>('{ me { email } }', {}, { token: payload.accessToken });
    expect(me.data!.me.email).toBe(email.toLowerCase());

    const again = await server.gql(
      `mutation($t: String!) { confirmEmail(input: { method: EMAIL, token: $t }) { accessToken } }`,
      { t: token },
    );
    expect(errorOf(again)).toMatchObject({
      message: 'This confirmation link was already used. Please request a new one.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'token' },
    });

    const signedIn = await signIn(server, email.toUpperCase(), STRONG_PASSWORD);
    expect(signedIn.errors).toBeUndefined();
  });

  it.each([
    ['Sh0rt-Pass', 'at least 12 characters'],
    ['correct-horse-42', 'an uppercase letter'],
    ['CORRECT-HORSE-42', 'a lowercase letter'],
    ['Correct-Horse-xy', 'a digit'],
    ['CorrectHorse42x', 'a symbol'],
  ])('rejects the password %s because it lacks %s', async (password, missing) => {
    const email = uniqueEmail();
    const res = await server.gql(SIGN_UP, { input: { email, password, name: 'Grace' } });
    const error = errorOf(res);
    expect(error.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'password' });
    expect(error.message).toContain(missing);
    expect(error.message).toMatch(/^Your password needs /);
    expect(await userCount(email)).toBe(0);
  });

  it('names every missing part of a weak password and rejects one over 100 characters', async () => {
    const weak = errorOf(await server.gql(SIGN_UP, { input: { email: uniqueEmail(), password: 'abc', name: 'G' } }));
    expect(weak.message).toBe('Your password needs at least 12 characters, an uppercase letter, a digit and a symbol.');
    const long = errorOf(
      await server.gql(SIGN_UP, { input: { email: uniqueEmail(), password: `Aa1!${'x'.repeat(97)}`, name: 'G' } }),
    );
    expect(long).toMatchObject({
      message: 'Your password can be at most 100 characters long.',
      extensions: { field: 'password' },
    });
  });

  it('rejects a malformed email, an over-long one and an empty name, naming the field', async () => {
    const bad = errorOf(
      await server.gql(SIGN_UP, { input: { email: 'not-an-email', password: STRONG_PASSWORD, name: 'G' } }),
    );
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'email' });
    const long = errorOf(
      await server.gql(SIGN_UP, {
        input: { email: `${'a'.repeat(310)}@example.com`, password: STRONG_PASSWORD, name: 'G' },
      }),
    );
    expect(long.extensions?.field).toBe('email');
    const noName = errorOf(
      await server.gql(SIGN_UP, { input: { email: uniqueEmail(), password: STRONG_PASSWORD, name: '  ' } }),
    );
    expect(noName).toMatchObject({ message: 'Enter your name.', extensions: { field: 'name' } });
  });

  it('answers a sign-up for an email that has an account like any other, and mails its owner instead', async () => {
    const existing = await signUpConfirmed(server, mail, uniqueEmail('dup'));
    const email = existing.user.email;
    const fresh = uniqueEmail('fresh');
    const TYPED = `mutation($input: SignUpInput!) { signUp(input: $input) { outcome user { id email name emailConfirmed hasPassword } } }`;
    const again = await server.gql<{ signUp: { outcome: string; user: Record<string, unknown> } }>(TYPED, {
      input: { email: email.toUpperCase(), password: 'Brand-New-Pass-99', name: 'Two' },
    });
    const first = await server.gql<{ signUp: { outcome: string; user: Record<string, unknown> } }>(TYPED, {
      input: { email: fresh, password: 'Brand-New-Pass-99', name: 'Two' },
    });
    expect(again.errors).toBeUndefined();
    // The same shape and values either way; nothing of the existing account shows.
    const shape = (r: typeof again, address: string) => ({
      ...r.data!.signUp,
      user: { ...r.data!.signUp.user, id: typeof r.data!.signUp.user.id, email: r.data!.signUp.user.email === address },
    });
    expect(shape(again, email)).toEqual(shape(first, fresh.toLowerCase()));
    expect(again.data!.signUp.user.id).not.toBe(existing.user.id);
    expect(again.data!.signUp.user.name).toBe('Two');

    const notice = await mail.waitForMail(email, (m) => m.subject === 'You already have a Fieldbook account');
    expect(mail.linkIn(notice, 'http://localhost:3000/auth/login').pathname).toBe('/auth/login');
    expect(await userCount(email)).toBe(1);
    // The existing account keeps its password.
    expect((await signIn(server, email, STRONG_PASSWORD)).errors).toBeUndefined();
    expect(errorOf(await signIn(server, email, 'Brand-New-Pass-99')).extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('refuses a commonly breached password, whatever its case, naming the field', async () => {
    for (const password of ['Password123!', 'pASSWORD123!', 'Qwerty123456!']) {
      const common = errorOf(
        await server.gql(SIGN_UP, { input: { email: uniqueEmail('common'), password, name: 'C' } }),
      );
      expect(common).toMatchObject({ extensions: { errorCode: 'BAD_USER_INPUT', field: 'password' } });
      expect(common.message).toMatch(/too common/);
    }
  });

  it('takes a team user email of up to 100 characters (000 §9), not 101', async () => {
    const at = '@example.com';
    const ok = `${'a'.repeat(100 - at.length)}${at}`;
    const long = `${'a'.repeat(101 - at.length)}${at}`;
    expect(
      (await server.gql(SIGN_UP, { input: { email: ok, password: STRONG_PASSWORD, name: 'L' } })).errors,
    ).toBeUndefined();
    const refused = errorOf(
      await server.gql(SIGN_UP, { input: { email: long, password: STRONG_PASSWORD, name: 'L' } }),
    );
    expect(refused).toMatchObject({
      message: 'An email address can be at most 100 characters long.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'email' },
    });
  });

  it('checks the send-confirmation request: a valid email and a non-empty recaptcha token', async () => {
    const noToken = errorOf(await server.gql(SEND, { input: { email: uniqueEmail(), recaptchaToken: ' ' } }));
    expect(noToken.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'recaptchaToken' });
    const badEmail = errorOf(await server.gql(SEND, { input: { email: 'nobody@', recaptchaToken: 'x' } }));
    expect(badEmail.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'email' });
  });

  it('mails a confirmation link for passwordless sign-up (EMAIL_SENT) that creates a confirmed account', async () => {
    const email = uniqueEmail('link');
    const sent = await server.gql<{ sendConfirmationEmail: Record<string, unknown> }>(SEND, {
      input: { email, recaptchaToken: 'token' },
    });
    expect(sent.data!.sendConfirmationEmail).toMatchObject({
      success: true,
      outcome: 'EMAIL_SENT',
      codeChallenge: null,
    });
    const token = mail
      .linkIn(await mail.waitForMail(email), 'http://localhost:3000/auth/confirm-email')
      .searchParams.get('token');
    const confirmed = await server.gql<{ confirmEmail: AuthPayload }>(
      `mutation($t: String!) { confirmEmail(input: { method: EMAIL, token: $t }) { ${AUTH_FIELDS} } }`,
      { t: token },
    );
    expect(confirmed.data!.confirmEmail.user).toMatchObject({
      email: email.toLowerCase(),
      emailConfirmed: true,
      hasPassword: false,
    });
  });

  it('answers success false with a message when the mail server refuses the mail', async () => {
    const sent = await server.gql<{ sendConfirmationEmail: Record<string, unknown> }>(SEND, {
      input: { email: uniqueEmail('bounce'), recaptchaToken: 't', useOneTimeCodeFlow: true },
    });
    expect(sent.data!.sendConfirmationEmail).toMatchObject({ success: false, outcome: null, codeChallenge: null });
    expect(sent.data!.sendConfirmationEmail.message).toMatch(/could not send the email/);
  });

  it('leaves no account behind when the confirmation mail cannot be sent', async () => {
    const email = uniqueEmail('bounce');
    const up = errorOf(await server.gql(SIGN_UP, { input: { email, password: STRONG_PASSWORD, name: 'Bo' } }));
    expect(up.message).toMatch(/could not send the email/);
    expect(await userCount(email)).toBe(0);
  });

  it('signs in with a one-time code, counting wrong codes and refusing a used one', async () => {
    const email = uniqueEmail('code');
    const sent = await server.gql<{ sendConfirmationEmail: { outcome: string; codeChallenge: string } }>(SEND, {
      input: { email, recaptchaToken: 'token', useOneTimeCodeFlow: true },
    });
    const { outcome, codeChallenge } = sent.data!.sendConfirmationEmail;
    expect(outcome).toBe('EMAIL_ONE_TIME_CODE');
    expect(codeChallenge).toMatch(/^[0-9a-f-]{36}$/);
    const message = await mail.waitForMail(email);
    const code = /\b(\d{6})\b/.exec(message.text)![1]!;
    expect(message.subject).toContain(code);

    const wrong = code === '000000' ? '111111' : '000000';
    const miss = errorOf(await server.gql(CONFIRM_CODE, { challenge: codeChallenge, code: wrong }));
    expect(miss).toMatchObject({
      message: 'That code is not right. You have 4 tries left.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'code' },
    });
    const row = await server.fieldbook.db.owner('email_challenges').where({ id: codeChallenge }).first();
    expect(row).toMatchObject({ attempts: 1, purpose: 'one_time_code' });
    expect(row.secret_hash).not.toContain(code);

    const ok = await server.gql<{ confirmEmail: AuthPayload }>(CONFIRM_CODE, { challenge: codeChallenge, code });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.confirmEmail.user).toMatchObject({ email: email.toLowerCase(), emailConfirmed: true });

    const reused = errorOf(await server.gql(CONFIRM_CODE, { challenge: codeChallenge, code }));
    expect(reused.message).toBe('This code was already used. Please request a new one.');
  });

  it('refuses a code after five wrong tries, even the right one', async () => {
    const email = uniqueEmail('tries');
    const sent = await server.gql<{ sendConfirmationEmail: { codeChallenge: string } }>(SEND, {
      input: { email, recaptchaToken: 't', useOneTimeCodeFlow: true },
    });
    const challenge = sent.data!.sendConfirmationEmail.codeChallenge;
    const code = /\b(\d{6})\b/.exec((await mail.waitForMail(email)).text)![1]!;
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) await server.gql(CONFIRM_CODE, { challenge, code: wrong });
    const blocked = errorOf(await server.gql(CONFIRM_CODE, { challenge, code }));
    expect(blocked.message).toBe('Too many wrong codes were entered. Please request a new one.');
  });

  it('refuses an expired code', async () => {
    const email = uniqueEmail('expired');
    const sent = await server.gql<{ sendConfirmationEmail: { codeChallenge: string } }>(SEND, {
      input: { email, recaptchaToken: 't', useOneTimeCodeFlow: true },
    });
    const challenge = sent.data!.sendConfirmationEmail.codeChallenge;
    const code = /\b(\d{6})\b/.exec((await mail.waitForMail(email)).text)![1]!;
    const row = await server.fieldbook.db.owner('email_challenges').where({ id: challenge }).first();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(10 * 60 * 1000);
    await server.fieldbook.db
      .owner('email_challenges')
      .where({ id: challenge })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = errorOf(await server.gql(CONFIRM_CODE, { challenge, code }));
    expect(expired).toMatchObject({
      message: 'This code has expired. Please request a new one.',
      extensions: { field: 'code' },
    });
  });

  it('checks confirm-email input by method', async () => {
    const run = (input: Record<string, unknown>) =>
      server.gql(`mutation($input: ConfirmEmailInput!) { confirmEmail(input: $input) { accessToken } }`, { input });
    expect(errorOf(await run({ method: 'EMAIL' }))).toMatchObject({
      message: 'This link is missing its token.',
      extensions: { field: 'token' },
    });
    expect(
      errorOf(await run({ method: 'ONE_TIME_CODE', codeChallenge: 'not-a-uuid', code: '123456' })).extensions?.field,
    ).toBe('codeChallenge');
    expect(
      errorOf(await run({ method: 'ONE_TIME_CODE', codeChallenge: crypto.randomUUID(), code: '12ab' })).extensions
        ?.field,
    ).toBe('code');
    expect(errorOf(await run({ method: 'OIDC', code: 'abc' })).extensions?.field).toBe('provider');
    expect(errorOf(await run({ method: 'OIDC', provider: 'oidc' })).extensions?.field).toBe('code');
  });

  it('stores the password as a self-describing scrypt hash at the configured cost', async () => {
    // The production cost (N=2^17) is checked in core/src/identity/passwords.test.ts; test servers hash at TEST_PASSWORD_HASH_COST.
    const session = await signUpConfirmed(server, mail);
    const row = await server.fieldbook.db.owner
      .withSchema('fieldbook_private')
      .from('password_hashes')
      .where({ user_id: session.user.id })
      .first();
    expect(server.fieldbook.config.passwordHashCost.N).toBe(2 ** TEST_PASSWORD_HASH_COST);
    expect(row.password_hash).toMatch(
      new RegExp(`^scrypt\\$${2 ** TEST_PASSWORD_HASH_COST}\\$8\\$1\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`),
    );
    expect(await verifyPassword(STRONG_PASSWORD, row.password_hash)).toBe(true);
  });
});
