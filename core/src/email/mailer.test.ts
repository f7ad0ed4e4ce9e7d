import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer, linksIn, readableMail } from './mailer.ts';

const message = {
  to: 'ana@example.com',
  subject: 'Confirm your email',
  text: 'Hi,\nconfirm your address: http://localhost:4123/auth/confirm-email?token=abc.def-1 (valid for a day).\nOr sign in at http://localhost:4123/auth/login.',
};

describe('mail printed to the log', () => {
  it('puts every link on a line of its own, without the punctuation around it', () => {
    const text = readableMail(message);
    const lines = text.split('\n');
    expect(lines).toContain('http://localhost:4123/auth/confirm-email?token=abc.def-1');
    expect(lines).toContain('http://localhost:4123/auth/login');
    expect(lines).toContain('Mail to ana@example.com');
    expect(lines).toContain('Subject: Confirm your email');
    expect(text).toContain('(valid for a day).');
    expect(linksIn(message.text)).toEqual([
      'http://localhost:4123/auth/confirm-email?token=abc.def-1',
      'http://localhost:4123/auth/login',
    ]);
  });

  it('prints the mail without SMTP_URL, and nothing when the log is silent', async () => {
    const printed: string[] = [];
    await createMailer({
      smtpUrl: undefined,
      from: 'x',
      logger: pino({ level: 'info' }, { write: () => undefined }),
      write: (t) => printed.push(t),
    }).send(message);
    expect(printed.join('')).toContain('\nhttp://localhost:4123/auth/login\n');
    const quiet: string[] = [];
    await createMailer({
      smtpUrl: undefined,
      from: 'x',
      logger: pino({ level: 'silent' }),
      write: (t) => quiet.push(t),
    }).send(message);
    expect(quiet).toEqual([]);
  });
});
