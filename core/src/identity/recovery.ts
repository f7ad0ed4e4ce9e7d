import { z } from 'zod';
import { badInput, forbidden } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { sendMailInBackground, type IdentityDeps } from './deps.ts';
import { authLink, identityMails } from './emails.ts';
import { emailSchema, linkTokenSchema, passwordSchema } from './inputs.ts';
import { checkPasswordOfViewer } from './password-check.ts';
import { signedIn, type AuthPayload } from './payload.ts';
import { findUserRowByEmail, findUserRowById, type UserRow } from './users.ts';

const emailOnly = z.object({ email: emailSchema });

/** Mails a password reset link (valid 1 hour) if the email has an account. Always true. */
export async function requestPasswordReset(deps: IdentityDeps, args: unknown): Promise<boolean> {
  const { email } = validate(emailOnly, args);
  const user = await findUserRowByEmail(deps.app, email);
  if (!user) return true; // the answer never tells whether an account exists
  const token = await deps.challenges.createLink('reset_password', user.email, { userId: user.id });
  sendMailInBackground(
    deps,
    identityMails.resetPassword(user.email, authLink(deps.config.publicUrl, 'reset-password', token)),
  );
  return true;
}

/**
 * Sets a new password from a reset link. The link proves the person reads the mailbox, so it also
 * confirms the email and unlocks the account; every other session ends.
 */
export async function resetPassword(deps: IdentityDeps, ctx: RequestContext, args: unknown): Promise<AuthPayload> {
  const { token, password } = validate(z.object({ token: linkTokenSchema, password: passwordSchema }), args);
  const passwordHash = await deps.hasher.hash(password, ctx);
  const challenge = await deps.challenges.consumeLink('reset_password', token);
  const [user] = await deps
    .app('users')
    .where({ id: challenge.payload.userId as string })
    .update({
      password_hash: passwordHash,
      failed_login_count: 0,
      locked_at: null,
      email_confirmed_at: deps.app.raw('coalesce(email_confirmed_at, now())'),
      updated_at: deps.app.fn.now(),
    })
    .returning<UserRow[]>('*');
  if (!user) throw badInput('token', 'This password reset link is not valid. Please request a new one.');
  await deps.sessions.revokeAllOf(user.id);
  return signedIn(deps, ctx, user);
}

/** Mails a new unlock link if the account is locked. Always true. */
export async function requestUnlock(deps: IdentityDeps, args: unknown): Promise<boolean> {
  const { email } = validate(emailOnly, args);
  const user = await findUserRowByEmail(deps.app, email);
  if (!user?.locked_at) return true;
  const token = await deps.challenges.createLink('unlock', user.email, { userId: user.id });
  sendMailInBackground(deps, identityMails.unlock(user.email, authLink(deps.config.publicUrl, 'unlock', token)));
  return true;
}

export async function unlockAccount(deps: IdentityDeps, args: unknown): Promise<boolean> {
  const { token } = validate(z.object({ token: linkTokenSchema }), args);
  const challenge = await deps.challenges.consumeLink('unlock', token);
  await deps
    .app('users')
    .where({ id: challenge.payload.userId as string })
    .update({ locked_at: null, failed_login_count: 0, updated_at: deps.app.fn.now() });
  return true;
}

const changePasswordSchema = z.object({ currentPassword: z.string().max(1000), newPassword: passwordSchema });

/**
 * Changes the signed-in person's password. A person who has one must give it, checked like a
 * sign-in (limited, and wrong ones count towards the lock); one who signed up without a password
 * sets their first. Only a signed-in person may: never an API token. Other sessions end; this one
 * stays.
 */
export async function changePassword(deps: IdentityDeps, ctx: RequestContext, args: unknown): Promise<boolean> {
  const viewer = ctx.requireViewer();
  if (viewer.apiTokenId) throw forbidden('An API token cannot change a password. Sign in to change it.');
  const { currentPassword, newPassword } = validate(changePasswordSchema, args);
  const user = await findUserRowById(deps.app, viewer.userId);
  if (!user) throw badInput('currentPassword', 'Your account was not found.');
  if (user.password_hash)
    await checkPasswordOfViewer(deps, ctx, currentPassword, 'currentPassword', 'Your current password is not right.');
  await deps
    .app('users')
    .where({ id: user.id })
    .update({ password_hash: await deps.hasher.hash(newPassword, ctx), updated_at: deps.app.fn.now() });
  await deps.sessions.revokeAllOf(user.id, viewer.sessionId);
  return true;
}
