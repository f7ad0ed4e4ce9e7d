import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from '../logger.ts';
import { hangUp, isDatabaseUnavailable, type OutageLog } from './unavailable.ts';

/** PostgreSQL channel names are identifiers; ours are fixed and namespaced. */
const CHANNEL = 'fieldbook_invalidate';
/** NOTIFY payloads are limited to 8000 bytes; keys are ids, far below that. */
const MAX_KEY_LENGTH = 1000;

export type InvalidationHandler = (key: string) => void;

/**
 * Tells every Fieldbook process that something it may hold in memory changed (a session ended, a
 * role changed). The process that publishes runs its own handlers at once; the others hear it
 * through PostgreSQL LISTEN/NOTIFY. If the listening connection drops, every handler is told
 * `*` (forget everything), because notifications sent meanwhile are lost.
 */
export interface Invalidations {
  /** Runs after the surrounding transaction commits when `trx` is given, so no one re-reads old rows. */
  publish(topic: string, key: string, trx?: Knex.Transaction): Promise<void>;
  subscribe(topic: string, handler: InvalidationHandler): void;
  /** True while other processes' invalidations reach us; caches must not fill otherwise. */
  listening(): boolean;
  close(): Promise<void>;
}

export const EVERYTHING = '*';

export function createInvalidations(opts: {
  db: Knex;
  connectionString: string;
  logger: Logger;
  outage?: OutageLog;
}): Invalidations {
  const handlers = new Map<string, Set<InvalidationHandler>>();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const dispatch = (topic: string, key: string) => {
    for (const h of handlers.get(topic) ?? []) h(key);
  };
  const forgetEverything = () => {
    for (const [topic] of handlers) dispatch(topic, EVERYTHING);
  };

  const listen = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: opts.connectionString, application_name: 'fieldbook-invalidations' });
    const reconnect = (err?: Error) => {
      // While the database is away this repeats every second: the outage log says it once.
      if (err && opts.outage && isDatabaseUnavailable(err)) opts.outage('invalidations', err);
      else if (err) opts.logger.warn({ err }, 'invalidation listener lost its connection; reconnecting');
      if (client === c) client = null;
      void hangUp(c);
      forgetEverything();
      if (!closed && !retry) retry = setTimeout(() => ((retry = null), void listen()), 1000);
    };
    c.on('error', reconnect);
    c.on('end', () => !closed && reconnect());
    c.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const split = n.payload.indexOf(':');
      if (split > 0) dispatch(n.payload.slice(0, split), n.payload.slice(split + 1));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      client = c;
      // Anything cached before this connection existed may have missed a notification.
      forgetEverything();
    } catch (err) {
      reconnect(err as Error);
    }
  };
  void listen();

  return {
    async publish(topic, key, trx) {
      if (topic.includes(':') || key.length > MAX_KEY_LENGTH)
        throw new Error(`invalid invalidation ${topic}:${key.slice(0, 50)}`);
      const send = async () => {
        dispatch(topic, key);
        // Our own listener hears it too; a second eviction is harmless.
        await opts.db.raw('select pg_notify(?, ?)', [CHANNEL, `${topic}:${key}`]);
      };
      if (!trx) return send();
      // Evict now, and again once the transaction commits: a request that read the old row in
      // between must not keep it. Not awaited: the transaction cannot commit while we wait in it.
      dispatch(topic, key);
      trx.executionPromise
        .then(send, () => undefined)
        .catch((err: unknown) => opts.logger.error({ err, topic }, 'could not publish an invalidation'));
    },
    listening: () => client !== null,
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) await hangUp(c);
    },
  };
}
