import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends mail over SMTP when SMTP_URL is set. Without it (development), each message is written to
 * the log in full, so sign-up links and codes are readable with no mail server at all.
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(message) {
        opts.logger.info({ mail: { to: message.to, subject: message.subject } }, `outgoing mail (no SMTP_URL set)\n${message.text}`);
      },
    };
  }
  const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: opts.from, ...message });
    },
  };
}
