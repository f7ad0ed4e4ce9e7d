import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError, unauthenticated } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { passwordSignUpSchema } from './accounts.ts';
import { sendMail, type IdentityDeps } from './deps.ts';
import { authLink, identityMails } from './emails.ts';
import { emailSchema } from './inputs.ts';
import { checkPassword } from './password-check.ts';
import { signedIn, toUserView, type AuthPayload, type UserView } from './payload.ts';
import { findUserRowByEmail, insertUser } from './users.ts';

export const WRONG_CREDENTIALS = 'The email or password is not right.';

/**
 * Sign-up by email and password: an unconfirmed account and a confirmation link by mail
 * (EMAIL_SENT). The answer is the same whether or not the email already has an account ("if this
 * email can sign up, a link is on its way"): an existing account's owner gets a mail saying so
 * instead, and the work done (a hash, a mail) is the same, so neither the answer nor its timing
 * tells who has an account.
 */
// Invite tokens are opaque to sign-up: accepting one later checks it is for the confirmed email.
const signUpSchema = passwordSignUpSchema.extend({
  inviteToken: z
    .string()
    .max(500, 'inviteToken is not a valid invitation.')
    .regex(/^[\w.~-]+$/, 'inviteToken is not a valid invitation.')
    .nullish(),
});

/** The confirmation link, carrying the invitation the person signed up from. */
function confirmLink(publicUrl: URL, token: string, inviteToken: string | null | undefined): string {
  const url = new URL(authLink(publicUrl, 'confirm-email', token));
  if (inviteToken) url.searchParams.set('invite', inviteToken);
  return url.toString();
}

export async function signUp(
  deps: IdentityDeps,
  ctx: RequestContext,
  input: unknown,
): Promise<{ outcome: 'EMAIL_SENT'; user: UserView }> {
  const valid = validate(signUpSchema, input);
  const passwordHash = await deps.hasher.hash(valid.password, ctx);
  const created = await deps.app.transaction(async (trx) => {
    if (await findUserRowByEmail(trx, valid.email)) return null;
    const user = await insertUser(trx, { email: valid.email, name: valid.name, passwordHash, emailConfirmed: false });
    if (!user) return null; // created by another request a moment ago
    const token = await deps.challenges.createLink(
      'confirm_email',
      user.email,
      { userId: user.id, keepPassword: true },
      trx,
    );
    // Sent before commit: if the mail cannot go out, no account is left behind waiting for it.
    await sendMail(
      deps,
      identityMails.confirmEmail(user.email, confirmLink(deps.config.publicUrl, token, valid.inviteToken)),
    );
    return user;
  });
  if (created) return { outcome: 'EMAIL_SENT', user: toUserView(created) };
  await sendMail(
    deps,
    identityMails.accountExists(
      valid.email,
      new URL('/auth/login', deps.config.publicUrl).toString(),
      resetPasswordPage(deps.config.publicUrl, valid.email),
    ),
  );
  // What a new account would look like: nothing of the existing one is shown.
  return {
    outcome: 'EMAIL_SENT',
    user: {
      id: randomUUID(),
      email: valid.email,
      name: valid.name,
      emailConfirmed: false,
      hasPassword: true,
      createdAt: new Date(),
    },
  };
}

function resetPasswordPage(publicUrl: URL, email: string): string {
  const url = new URL('/auth/reset-password', publicUrl);
  url.searchParams.set('email', email);
  return url.toString();
}

const signInSchema = z.object({ email: emailSchema, password: z.string().min(1, 'Enter your password.').max(1000) });

/**
 * Sign-in by email and password. Unknown emails, wrong passwords and locked accounts get the
 * same answer in the same time (see `checkPassword`, which also limits attempts and locks the
 * account after too many wrong passwords, mailing its person an unlock link).
 */
export async function signIn(deps: IdentityDeps, ctx: RequestContext, args: unknown): Promise<AuthPayload> {
  const { email, password } = validate(signInSchema, args);
  const user = await findUserRowByEmail(deps.app, email);
  const right = await checkPassword(deps, ctx, email, user, password);
  if (!user || !right) throw unauthenticated(WRONG_CREDENTIALS);
  if (!user.email_confirmed_at) {
    const token = await deps.challenges.createLink('confirm_email', user.email, {
      userId: user.id,
      keepPassword: true,
    });
    await sendMail(
      deps,
      identityMails.confirmEmail(user.email, authLink(deps.config.publicUrl, 'confirm-email', token)),
    );
    throw new AppError(
      'FORBIDDEN',
      'Please confirm your email address first. We have just sent you a new confirmation link.',
    );
  }
  return signedIn(deps, ctx, user);
}
