import { z } from 'zod';
import { AppError, unauthenticated } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { NOTIFICATION_TYPES, notifications } from '../notifications/notifications.ts';
import { createPasswordUserRow } from './accounts.ts';
import { sendMail, sendMailInBackground, type IdentityDeps } from './deps.ts';
import { authLink, identityMails } from './emails.ts';
import { emailSchema } from './inputs.ts';
import { verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { signedIn, toUserView, type AuthPayload, type UserView } from './payload.ts';
import { findUserRowByEmail, type UserRow } from './users.ts';

export const WRONG_CREDENTIALS = 'The email or password is not right.';
export const ACCOUNT_LOCKED = 'This account is locked after too many failed sign-in attempts. Check your email for an unlock link.';

/** Sign-up by email and password: an unconfirmed account and a confirmation link by mail (EMAIL_SENT). */
export async function signUp(deps: IdentityDeps, input: unknown): Promise<{ outcome: 'EMAIL_SENT'; user: UserView }> {
  return deps.app.transaction(async (trx) => {
    const user = await createPasswordUserRow(trx, input as { email: string; password: string; name: string });
    const token = await deps.challenges.createLink('confirm_email', user.email, { userId: user.id, keepPassword: true }, trx);
    // Sent before commit: if the mail cannot go out, no account is left behind waiting for it.
    await sendMail(deps, identityMails.confirmEmail(user.email, authLink(deps.config.publicUrl, 'confirm-email', token)));
    return { outcome: 'EMAIL_SENT' as const, user: toUserView(user) };
  });
}

const signInSchema = z.object({ email: emailSchema, password: z.string().min(1, 'Enter your password.').max(1000) });

/**
 * Sign-in by email and password. Unknown emails and wrong passwords get the same answer in the
 * same time. Each wrong password counts; at the limit the account locks, and the person gets an
 * in-app notification and an unlock link by mail.
 */
export async function signIn(deps: IdentityDeps, ctx: RequestContext, args: unknown): Promise<AuthPayload> {
  const { email, password } = validate(signInSchema, args);
  const user = await findUserRowByEmail(deps.app, email);
  if (!user?.password_hash) {
    await verifyAgainstDecoy(password);
    throw unauthenticated(WRONG_CREDENTIALS);
  }
  if (user.locked_at) throw new AppError('FORBIDDEN', ACCOUNT_LOCKED);
  if (!(await verifyPassword(password, user.password_hash))) {
    if (await countFailedAttempt(deps, user)) throw new AppError('FORBIDDEN', ACCOUNT_LOCKED);
    throw unauthenticated(WRONG_CREDENTIALS);
  }
  if (user.failed_login_count > 0) await deps.app('users').where({ id: user.id }).update({ failed_login_count: 0 });
  if (!user.email_confirmed_at) {
    const token = await deps.challenges.createLink('confirm_email', user.email, { userId: user.id, keepPassword: true });
    await sendMail(deps, identityMails.confirmEmail(user.email, authLink(deps.config.publicUrl, 'confirm-email', token)));
    throw new AppError('FORBIDDEN', 'Please confirm your email address first. We have just sent you a new confirmation link.');
  }
  return signedIn(deps, ctx, user);
}

/** Counts one failed attempt; returns true when this attempt locked the account. */
async function countFailedAttempt(deps: IdentityDeps, user: UserRow): Promise<boolean> {
  const max = deps.config.loginMaxFailedAttempts;
  const lockedNow = await deps.app.transaction(async (trx) => {
    const [row] = await trx('users')
      .where({ id: user.id })
      .increment('failed_login_count', 1)
      .returning<Array<{ failed_login_count: number; locked_at: Date | null }>>(['failed_login_count', 'locked_at']);
    if (!row || row.locked_at || row.failed_login_count < max) return false;
    const locked = await trx('users').where({ id: user.id }).whereNull('locked_at').update({ locked_at: trx.fn.now(), updated_at: trx.fn.now() });
    return locked === 1;
  });
  if (lockedNow) await tellAboutLock(deps, user, max);
  return lockedNow;
}

async function tellAboutLock(deps: IdentityDeps, user: UserRow, attempts: number): Promise<void> {
  await notifications.notify(deps.app, { userId: user.id, type: NOTIFICATION_TYPES.accountLocked, payload: { attempts } });
  const token = await deps.challenges.createLink('unlock', user.email, { userId: user.id });
  sendMailInBackground(deps, identityMails.accountLocked(user.email, authLink(deps.config.publicUrl, 'unlock', token), attempts));
}
