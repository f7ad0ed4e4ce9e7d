import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const URL_PATTERN = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g;

/** The links in a mail's text, in order. */
export function linksIn(text: string): string[] {
  return text.match(URL_PATTERN) ?? [];
}

/**
 * A mail as a person reads it in a terminal: who and what it is about, its text with every link
 * on a line of its own (so a double-click or a terminal's link detection takes the whole link and
 * nothing else), between rules.
 */
export function readableMail(message: MailMessage): string {
  const body = message.text
    .replace(URL_PATTERN, (url) => `\n${url}\n`)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const rule = '─'.repeat(72);
  return `${rule}\nMail to ${message.to}\nSubject: ${message.subject}\n\n${body}\n${rule}\n`;
}

/**
 * Sends mail over SMTP when SMTP_URL is set. Without it (development), each message is printed
 * readably (`write`, standard output by default) and logged with its links, so sign-up links and
 * codes are usable with no mail server at all.
 */
export function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  logger: Logger;
  write?: (text: string) => void;
}): Mailer {
  if (!opts.smtpUrl) {
    const write = opts.write ?? ((text: string) => void process.stdout.write(text));
    return {
      async send(message) {
        opts.logger.info(
          { mail: { to: message.to, subject: message.subject, links: linksIn(message.text) } },
          'outgoing mail (no SMTP_URL set), printed below',
        );
        // LOG_LEVEL=silent keeps it quiet, as it does every other line.
        if (opts.logger.isLevelEnabled('info')) write(`\n${readableMail(message)}\n`);
      },
    };
  }
  // The SMTP library loads with the first message, not with every start.
  const smtpUrl = opts.smtpUrl;
  let transport: Promise<Transporter> | null = null;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from: opts.from, ...message });
    },
  };
}
