import { badInput, forbidden } from '../errors/app-error.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { NOTIFICATION_TYPES, notifications } from '../notifications/notifications.ts';
import { sendMailInBackground, type IdentityDeps } from './deps.ts';
import { authLink, identityMails } from './emails.ts';
import { findUserRowById, type UserRow } from './users.ts';

/**
 * Checks a password the way sign-in does, for sign-in and for every re-check of a signed-in
 * person's password (changing it, creating a workspace by email):
 * - one attempt is taken from the address's and the email's limits first (TOO_MANY_REQUESTS
 *   before any hashing);
 * - an email without an account, or without a password, costs a decoy hash, so timing tells
 *   nothing;
 * - a locked account is hashed against and answered like a wrong password, so a caller cannot
 *   tell a locked account from a wrong password;
 * - a wrong password counts towards the lock; a right one resets the count and gives the
 *   attempt back.
 * Returns true only for the right password of an unlocked account.
 */
export async function checkPassword(
  deps: IdentityDeps,
  ctx: RequestContext | null,
  email: string,
  user: UserRow | null,
  password: string,
): Promise<boolean> {
  const attempt = await deps.attempts.begin(ctx, email);
  if (!user?.password_hash) {
    await deps.hasher.verifyDecoy(password, ctx);
    return false;
  }
  const right = await deps.hasher.verify(password, user.password_hash, ctx);
  if (user.locked_at) return false;
  if (!right) {
    await countFailedAttempt(deps, user);
    return false;
  }
  if (user.failed_login_count > 0) await deps.app('users').where({ id: user.id }).update({ failed_login_count: 0 });
  await deps.attempts.succeeded(attempt);
  return true;
}

/** The signed-in person's own password, before a sensitive change; API tokens may not. */
export async function checkPasswordOfViewer(
  deps: IdentityDeps,
  ctx: RequestContext,
  password: string,
  field: string,
  wrong = 'That password is not correct.',
): Promise<void> {
  const viewer = ctx.requireViewer();
  if (viewer.apiTokenId) throw forbidden('An API token cannot do this. Sign in with your password instead.');
  const user = await findUserRowById(deps.app, viewer.userId);
  if (!(await checkPassword(deps, ctx, viewer.email, user, password))) {
    if (user && !user.password_hash) throw badInput(field, 'Your account has no password yet.');
    throw badInput(field, wrong);
  }
}

/** Counts one failed attempt; at the limit the account locks and its person is told. */
async function countFailedAttempt(deps: IdentityDeps, user: UserRow): Promise<void> {
  const max = deps.config.loginMaxFailedAttempts;
  const lockedNow = await deps.app.transaction(async (trx) => {
    const [row] = await trx('users')
      .where({ id: user.id })
      .increment('failed_login_count', 1)
      .returning<Array<{ failed_login_count: number; locked_at: Date | null }>>(['failed_login_count', 'locked_at']);
    if (!row || row.locked_at || row.failed_login_count < max) return false;
    const locked = await trx('users')
      .where({ id: user.id })
      .whereNull('locked_at')
      .update({ locked_at: trx.fn.now(), updated_at: trx.fn.now() });
    return locked === 1;
  });
  if (lockedNow) await tellAboutLock(deps, user, max);
}

async function tellAboutLock(deps: IdentityDeps, user: UserRow, attempts: number): Promise<void> {
  await notifications.notify(deps.app, {
    userId: user.id,
    type: NOTIFICATION_TYPES.accountLocked,
    payload: { attempts },
  });
  const token = await deps.challenges.createLink('unlock', user.email, { userId: user.id });
  sendMailInBackground(
    deps,
    identityMails.accountLocked(user.email, authLink(deps.config.publicUrl, 'unlock', token), attempts),
  );
}

/**
 * Someone proved they read the account's mailbox (a sign-in link, a one-time code): that is what
 * the unlock link proves too, so the lock and the failure count go, and the email's attempt
 * limit starts afresh. This is how a locked-out owner gets back in while someone else keeps
 * guessing their password.
 */
export async function unlockByMailboxProof(deps: IdentityDeps, user: UserRow): Promise<UserRow> {
  await deps.attempts.forgetEmail(user.email);
  if (!user.locked_at && user.failed_login_count === 0) return user;
  const [updated] = await deps
    .app('users')
    .where({ id: user.id })
    .update({ locked_at: null, failed_login_count: 0, updated_at: deps.app.fn.now() })
    .returning<UserRow[]>('*');
  return updated ?? user;
}
