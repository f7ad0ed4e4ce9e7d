import { z } from 'zod';
import { AppError } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { withTenant } from '../db/tenancy.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { findOrCreateUserRow } from './accounts.ts';
import type { AnsweredChallenge } from './challenges.ts';
import { sendMail, sendMailInBackground, type IdentityDeps } from './deps.ts';
import { authLink, identityMails } from './emails.ts';
import { emailSchema, linkTokenSchema } from './inputs.ts';
import { unlockByMailboxProof } from './password-check.ts';
import { signedIn, type AuthPayload } from './payload.ts';
import { confirmUserEmail, findUserRowByEmail, findUserRowById, type UserRow } from './users.ts';

const sendConfirmationSchema = z.object({
  email: emailSchema,
  recaptchaToken: z.string().trim().min(1, 'The recaptchaToken is missing. Please reload the page and try again.'),
  useOneTimeCodeFlow: z.boolean().nullish(),
  forceCreateWorkspace: z.boolean().nullish(),
  skipFastLoginRedirect: z.boolean().nullish(),
});

export type ConfirmationEmailResult =
  | { success: true; outcome: 'EMAIL_SENT'; message: null; teamId: null; codeChallenge: null }
  | { success: true; outcome: 'EMAIL_SKIPPED'; message: null; teamId: string; codeChallenge: null }
  | { success: true; outcome: 'EMAIL_ONE_TIME_CODE'; message: null; teamId: null; codeChallenge: string }
  | { success: false; outcome: null; message: string; teamId: null; codeChallenge: null };

/**
 * Starts sign-up or passwordless sign-in by email (002 §7). A confirmed member of the workspace
 * the request addresses, who has a password, needs no mail at all: they sign in with it
 * (EMAIL_SKIPPED). Otherwise a six-digit code or a confirmation link goes out.
 */
export async function sendConfirmationEmail(
  deps: IdentityDeps,
  ctx: RequestContext,
  input: unknown,
): Promise<ConfirmationEmailResult> {
  const valid = validate(sendConfirmationSchema, input);
  const none = { message: null, teamId: null, codeChallenge: null } as const;
  // The token is checked for presence only: no reCAPTCHA provider is configured for this server.
  if (ctx.workspace && !valid.skipFastLoginRedirect) {
    const user = await findUserRowByEmail(deps.app, valid.email);
    if (user?.email_confirmed_at && user.password_hash && (await isMember(deps, ctx.workspace.id, user.id))) {
      return { success: true, outcome: 'EMAIL_SKIPPED', message: null, teamId: ctx.workspace.id, codeChallenge: null };
    }
  }
  const payload = { forceCreateWorkspace: valid.forceCreateWorkspace ?? false, workspaceId: ctx.workspace?.id ?? null };
  try {
    if (valid.useOneTimeCodeFlow) {
      const { codeChallenge, code } = await deps.challenges.createCode(valid.email, payload);
      await sendMail(deps, identityMails.oneTimeCode(valid.email, code));
      return { success: true, outcome: 'EMAIL_ONE_TIME_CODE', ...none, codeChallenge };
    }
    const token = await deps.challenges.createLink('confirm_email', valid.email, payload);
    await sendMail(
      deps,
      identityMails.confirmEmail(valid.email, authLink(deps.config.publicUrl, 'confirm-email', token)),
    );
    return { success: true, outcome: 'EMAIL_SENT', ...none };
  } catch (err) {
    if (err instanceof AppError)
      return { success: false, outcome: null, message: err.message, teamId: null, codeChallenge: null };
    throw err;
  }
}

async function isMember(deps: IdentityDeps, workspaceId: string, userId: string): Promise<boolean> {
  const row = await withTenant(deps.app, { workspaceId, userId }, (trx) =>
    trx('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).first('user_id'),
  );
  return Boolean(row);
}

const CODE_DIGITS = 'The code is the six digits from the email.';
const NO_PROVIDER = 'Say which provider you signed in with.';
const NO_PROVIDER_CODE = 'The code from the provider is missing.';

const confirmEmailSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('EMAIL'), token: linkTokenSchema }),
  z.object({
    method: z.literal('ONE_TIME_CODE'),
    codeChallenge: z.uuid({ error: 'The codeChallenge must be the id you received with the code.' }),
    code: z
      .string({ error: CODE_DIGITS })
      .trim()
      .regex(/^\d{6}$/, CODE_DIGITS),
  }),
  z.object({
    method: z.literal('OIDC'),
    provider: z.string({ error: NO_PROVIDER }).trim().min(1, NO_PROVIDER).max(50),
    code: z.string({ error: NO_PROVIDER_CODE }).trim().min(1, NO_PROVIDER_CODE).max(4000),
  }),
]);

export type ConfirmEmailInput = z.infer<typeof confirmEmailSchema>;

/**
 * Confirms an email by link token, one-time code or provider code (002 §5), and signs the person
 * in. A link or code from the mailbox also lifts a lock on the account (see `unlockByMailboxProof`).
 */
export async function confirmEmail(
  deps: IdentityDeps,
  ctx: RequestContext,
  input: unknown,
  oidc: (ctx: RequestContext, provider: string, code: string) => Promise<UserRow>,
): Promise<AuthPayload> {
  const valid = validate(confirmEmailSchema, input);
  switch (valid.method) {
    case 'EMAIL':
      return signedIn(
        deps,
        ctx,
        await unlockByMailboxProof(
          deps,
          await confirmedByChallenge(deps, await deps.challenges.consumeLink('confirm_email', valid.token)),
        ),
      );
    case 'ONE_TIME_CODE':
      return signedIn(
        deps,
        ctx,
        await unlockByMailboxProof(
          deps,
          await confirmedByChallenge(deps, await deps.challenges.consumeCode(valid.codeChallenge, valid.code)),
        ),
      );
    case 'OIDC':
      return signedIn(deps, ctx, await oidc(ctx, valid.provider, valid.code));
  }
}

/** The person an answered challenge proves: the sign-up's own account, or found or created by email. */
async function confirmedByChallenge(deps: IdentityDeps, challenge: AnsweredChallenge): Promise<UserRow> {
  const userId = typeof challenge.payload.userId === 'string' ? challenge.payload.userId : null;
  if (userId && challenge.payload.keepPassword === true) {
    await confirmUserEmail(deps.app, userId);
    const user = await findUserRowById(deps.app, userId);
    if (user && user.email.toLowerCase() === challenge.email.toLowerCase()) return user;
  }
  return findOrCreateUserRow(deps.app, { email: challenge.email, emailConfirmed: true });
}

const emailOnly = z.object({ email: emailSchema });

/** Mails a single-use sign-in link valid for 15 minutes, if the email has an account. Always true. */
export async function requestMagicLink(deps: IdentityDeps, args: unknown): Promise<boolean> {
  const { email } = validate(emailOnly, args);
  const user = await findUserRowByEmail(deps.app, email);
  if (!user) return true; // the answer never tells whether an account exists
  const token = await deps.challenges.createLink('magic_login', user.email, { userId: user.id });
  sendMailInBackground(
    deps,
    identityMails.magicLink(user.email, authLink(deps.config.publicUrl, 'magic-login', token)),
  );
  return true;
}

export async function magicLogin(deps: IdentityDeps, ctx: RequestContext, args: unknown): Promise<AuthPayload> {
  const { token } = validate(z.object({ token: linkTokenSchema }), args);
  const challenge = await deps.challenges.consumeLink('magic_login', token);
  const user = await findOrCreateUserRow(deps.app, { email: challenge.email, emailConfirmed: true });
  return signedIn(deps, ctx, await unlockByMailboxProof(deps, user));
}
