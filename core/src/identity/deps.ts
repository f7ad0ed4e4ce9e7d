import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import type { Mailer, MailMessage } from '../email/mailer.ts';
import { AppError } from '../errors/app-error.ts';
import type { Logger } from '../logger.ts';
import type { EmailChallenges } from './challenges.ts';
import type { PasswordHasher } from './passwords.ts';
import type { SessionStore } from './sessions.ts';
import type { PasswordAttempts } from './sign-in-limits/password-attempts.ts';

/** What the identity module's parts share: built once in module.ts. */
export interface IdentityDeps {
  config: Config;
  /** The row-level-security-bound connection. */
  app: Knex;
  mailer: Mailer;
  logger: Logger;
  sessions: SessionStore;
  challenges: EmailChallenges;
  /** Hashes and checks passwords, a few at a time. */
  hasher: PasswordHasher;
  /** Limits on password attempts per client address and per email. */
  attempts: PasswordAttempts;
}

/** Sends a mail, turning a mail-server failure into an error people can act on. */
export async function sendMail(deps: IdentityDeps, message: MailMessage): Promise<void> {
  try {
    await deps.mailer.send(message);
  } catch (err) {
    deps.logger.error({ err, subject: message.subject }, 'could not send mail');
    throw new AppError('INTERNAL_SERVER_ERROR', 'We could not send the email just now. Please try again in a moment.', {
      cause: err,
    });
  }
}

/**
 * Sends a mail without making the caller wait or fail. For the requests that answer `true`
 * whether or not the email has an account: waiting for the mail server would tell the two apart.
 */
export function sendMailInBackground(deps: IdentityDeps, message: MailMessage): void {
  sendMail(deps, message).catch(() => {
    // Logged by sendMail; the person can ask again.
  });
}
