import type pg from 'pg';
import type { Logger } from '../logger.ts';

/**
 * Errors that mean "PostgreSQL is away right now" (stopped, restarting, unreachable), as opposed
 * to a bad query: connection refused or reset, the server shutting down or starting up, a pool
 * that could not get a connection in time.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, recovering)
  '08000',
  '08001',
  '08003',
  '08006', // connection exceptions
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Client has encountered a connection error|Knex: Timeout acquiring a connection|the database system is (starting up|shutting down)|terminating connection due to administrator command|connect ECONNREFUSED/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/**
 * Says "the database is unavailable" once per interval, however many requests and pollers run
 * into it meanwhile, with how many did; the first failure after a quiet interval is logged at
 * once. A stack trace per failed request would bury the one line that matters.
 */
export type OutageLog = (source: string, err: unknown) => void;

export function createOutageLog(logger: Logger, intervalMs = 10_000): OutageLog {
  let last = 0;
  let suppressed = 0;
  return (source, err) => {
    const now = Date.now();
    if (now - last < intervalMs) {
      suppressed += 1;
      return;
    }
    last = now;
    const message = err instanceof Error ? err.message : String(err);
    logger.warn(
      { source, reason: message, alsoFailedMeanwhile: suppressed },
      'the database is unavailable; Fieldbook keeps reconnecting',
    );
    suppressed = 0;
  };
}

/**
 * Hangs up a dedicated client without caring how: a dying connection may still emit errors
 * (nothing listens to it any longer) and its end may fail while the server is going away.
 */
export function hangUp(c: pg.Client): Promise<void> {
  c.removeAllListeners();
  c.on('error', () => undefined);
  return c.end().catch(() => undefined);
}
