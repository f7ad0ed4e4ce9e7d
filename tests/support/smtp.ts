import { SMTPServer } from 'smtp-server';
import { freePort } from './ports.ts';

/** One message as a real mail server received it. */
export interface ReceivedMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  raw: string;
}

export interface TestMailServer {
  /** Pass as `smtpUrl` to startTestServer. */
  url: string;
  received: ReceivedMail[];
  /**
   * Resolves with the first message to `to` (matching `predicate`) not handed out before, waiting
   * for it to arrive if need be. Each message is handed out once.
   */
  waitForMail(to: string, predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** The first URL in a message's text that starts with `prefix`. */
  linkIn(mail: ReceivedMail, prefix: string): URL;
  close(): Promise<void>;
}

/**
 * Starts a real SMTP server on a free local port that keeps every message it receives. It refuses
 * recipients whose address starts with `bounce`.
 */
export async function startMailServer(): Promise<TestMailServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Lets a test see how Fieldbook copes when the mail server refuses a message.
    onRcptTo(address, _session, callback) {
      if (address.address.toLowerCase().startsWith('bounce')) callback(new Error('550 No such mailbox here'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = (session.envelope.rcptTo || []).map((r) => r.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ ...parseMessage(raw), to, from, raw });
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitForMail(to, predicate = () => true, timeoutMs = 10_000) {
      const wanted = to.toLowerCase();
      const find = () => received.find((m) => !taken.has(m) && m.to.includes(wanted) && predicate(m));
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return false;
          taken.add(mail);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const seen = received.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`No mail to ${to} arrived within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    linkIn(mail, prefix) {
      const found = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(prefix));
      if (!found) throw new Error(`No link starting with ${prefix} in mail "${mail.subject}":\n${mail.text}`);
      return new URL(found);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Enough of RFC 5322 and MIME for the single-part text mails Fieldbook sends. */
function parseMessage(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split >= 0 ? raw.slice(0, split) : raw;
  let body = split >= 0 ? raw.slice(split + 4) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return {
    subject: decodeEncodedWords(headers.get('subject') ?? ''),
    text: body.replace(/\r\n/g, '\n').replace(/\n$/, ''),
  };
}

function decodeQuotedPrintable(s: string): string {
  const softBreaksGone = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksGone.length; i++) {
    const c = softBreaksGone[i]!;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(softBreaksGone.slice(i + 1, i + 3))) {
      bytes.push(parseInt(softBreaksGone.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeEncodedWords(s: string): string {
  return s.replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=\s*/g, (_m, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}
