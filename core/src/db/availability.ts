import pg from 'pg';
import type { Logger } from '../logger.ts';
import { createOutageLog, hangUp, type OutageLog } from './unavailable.ts';

/**
 * Whether PostgreSQL is reachable right now, known without asking it on every request: one
 * connection stays open as a sentinel. When it drops (the server stopped or the network went),
 * the database counts as away and the sentinel reconnects every `retryMs` until it is back.
 */
export interface DatabaseAvailability {
  isUp(): boolean;
  /** A request ran into an unreachable database: counts it as away until the sentinel reconnects. */
  reportUnavailable(source: string, err: unknown): void;
  close(): Promise<void>;
}

export function watchDatabase(opts: {
  connectionString: string;
  logger: Logger;
  retryMs?: number;
  outage?: OutageLog;
}): DatabaseAvailability {
  const retryMs = opts.retryMs ?? 1000;
  const outage = opts.outage ?? createOutageLog(opts.logger);
  let sentinel: pg.Client | null = null;
  let up = true; // the start opened the pools a moment ago
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async () => {
    retry = null;
    if (closed) return;
    const c = new pg.Client({
      connectionString: opts.connectionString,
      application_name: 'fieldbook-health',
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    const lost = (err?: Error) => {
      if (sentinel === c) sentinel = null;
      void hangUp(c);
      if (closed) return;
      if (up) outage('database', err ?? new Error('the connection to PostgreSQL ended'));
      up = false;
      if (!retry) retry = setTimeout(() => void connect(), retryMs);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    try {
      await c.connect();
      if (closed) return void (await c.end().catch(() => undefined));
      sentinel = c;
      if (!up) opts.logger.info('the database is back');
      up = true;
    } catch (err) {
      lost(err as Error);
    }
  };
  void connect();

  return {
    isUp: () => up,
    reportUnavailable(source, err) {
      outage(source, err);
      up = false;
      // The sentinel may not have noticed yet (a network cut shows only on use): check now.
      if (sentinel) {
        const c = sentinel;
        c.query('select 1').then(
          () => {
            if (sentinel === c) up = true;
          },
          () => undefined, // the client's error event has it
        );
      } else if (!retry && !closed) {
        retry = setTimeout(() => void connect(), 0);
      }
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = sentinel;
      sentinel = null;
      if (c) await hangUp(c);
    },
  };
}
