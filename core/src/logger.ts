import { pino, type Logger } from 'pino';

export type { Logger };

/** Secrets never reach the logs: these paths are censored wherever they appear. */
const REDACT = [
  'password',
  '*.password',
  'token',
  '*.token',
  'refreshToken',
  '*.refreshToken',
  'secret',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
