import type { MailMessage } from '../email/mailer.ts';

/** Builds the links mailed to people; they open pages of the root-domain web app. */
export function authLink(
  publicUrl: URL,
  page: 'reset-password' | 'magic-login' | 'confirm-email' | 'unlock',
  token: string,
): string {
  const url = new URL(`/auth/${page}`, publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

const SIGN_OFF = '\n\nIf you did not ask for this email, you can ignore it.\n\n— Fieldbook';

/** Plain-text mails of sign-up and sign-in; each says what to do and how long it is valid. */
export const identityMails = {
  confirmEmail(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Confirm your email address for Fieldbook',
      text: `Hello,\n\nPlease confirm your email address by opening this link:\n\n${link}\n\nThe link works once and is valid for 24 hours.${SIGN_OFF}`,
    };
  },
  oneTimeCode(to: string, code: string): MailMessage {
    return {
      to,
      subject: `Your Fieldbook sign-in code: ${code}`,
      text: `Hello,\n\nYour sign-in code is:\n\n    ${code}\n\nEnter it on the sign-in page. It is valid for 10 minutes and works once.${SIGN_OFF}`,
    };
  },
  resetPassword(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Reset your Fieldbook password',
      text: `Hello,\n\nSomeone asked to reset the password of your Fieldbook account. To choose a new password, open this link:\n\n${link}\n\nThe link works once and is valid for 1 hour. Your current password keeps working until you choose a new one.${SIGN_OFF}`,
    };
  },
  magicLink(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Your Fieldbook sign-in link',
      text: `Hello,\n\nOpen this link to sign in to Fieldbook:\n\n${link}\n\nThe link works once and is valid for 15 minutes.${SIGN_OFF}`,
    };
  },
  accountLocked(to: string, link: string, attempts: number): MailMessage {
    return {
      to,
      subject: 'Your Fieldbook account is locked',
      text:
        `Hello,\n\nYour Fieldbook account was locked after ${attempts} failed sign-in attempts in a row. ` +
        `This protects your account from someone guessing your password.\n\nTo unlock it, open this link:\n\n${link}\n\n` +
        'The link works once and is valid for 24 hours. Until then you can still sign in with a code or link sent to this address from the sign-in page. ' +
        'If these attempts were not yours, please also reset your password from the sign-in page.\n\n— Fieldbook',
    };
  },
  accountExists(to: string, loginLink: string, resetLink: string): MailMessage {
    return {
      to,
      subject: 'You already have a Fieldbook account',
      text:
        `Hello,\n\nSomeone, perhaps you, tried to create a Fieldbook account with this email address. You already have one, so nothing was changed.\n\n` +
        `Sign in here:\n\n${loginLink}\n\nForgot your password? Choose a new one here:\n\n${resetLink}${SIGN_OFF}`,
    };
  },
  unlock(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Unlock your Fieldbook account',
      text: `Hello,\n\nTo unlock your Fieldbook account, open this link:\n\n${link}\n\nThe link works once and is valid for 24 hours.${SIGN_OFF}`,
    };
  },
};
