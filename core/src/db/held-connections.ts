import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/** The connection the current async work holds: of which pool, for which workspace. */
export interface Held {
  client: Knex['client'];
  workspaceId: string | null;
  /** Where the held transaction was begun, while the check is on: the place to restructure. */
  origin?: string;
  /** Set once the transaction ended: work it started to run after commit holds nothing. */
  released: boolean;
}

const held = new AsyncLocalStorage<Held>();
/** The pools whose nested acquisitions are checked, and how. */
const checks = new WeakMap<Knex['client'], { mode: NestedAcquireCheck; warn: (err: Error) => void }>();

/**
 * The connection a transaction about to begin on `db` will hold for `workspaceId`; null for a
 * savepoint inside a transaction, which holds no connection of its own (the outer one is held).
 * Where it was asked for is noted while the check is on, before knex's own calls hide the caller.
 */
export function heldConnection(db: Knex, workspaceId: string | null): Held | null {
  if ((db as Knex.Transaction).isTransaction) return null;
  const origin = checks.has(db.client) ? new Error('at').stack : undefined;
  return { client: db.client, workspaceId, released: false, ...(origin ? { origin } : {}) };
}

/** Runs `fn` as work that holds `connection` (mark it `released` when the transaction ends). */
export function holding<T>(connection: Held | null, fn: () => T): T {
  return connection ? held.run(connection, fn) : fn();
}

/** The connection of `db` the current work already holds, if any. */
export function heldOf(db: Knex): Held | undefined {
  const h = held.getStore();
  return h && h.client === db.client && !h.released ? h : undefined;
}

/** What to do when work holding a pooled connection asks the same pool for another. */
export type NestedAcquireCheck = 'off' | 'warn' | 'throw';

export class NestedAcquisition extends Error {
  constructor(held: Held) {
    super(
      'A database connection was requested while this work already holds one from the same pool. ' +
        'Under load every connection can end up held by work waiting for a second one, and then nothing moves: ' +
        'read what the transaction needs, end it, then call what takes its own connection (or pass the transaction on).',
    );
    this.name = 'NestedAcquisition';
    if (held.origin)
      this.stack = `${this.stack}\nThe transaction held was begun ${held.origin.replace(/^Error: /, '')}`;
  }
}

/**
 * Development and test check: work that holds a connection of a pool (inside `withTenant`) and
 * asks that pool for another one is reported (`warn`) or fails (`throw`). Ten such requests at
 * once hold a pool of ten while each waits for an eleventh, and every request of every workspace
 * waits with them until the acquire timeout. Off in production: the check is a lookup per
 * acquisition, and what it finds is a design error to fix, not a condition to handle.
 */
export function checkNestedAcquisition(db: Knex, mode: NestedAcquireCheck, warn: (err: Error) => void): void {
  if (mode === 'off') return;
  checks.set(db.client, { mode, warn });
  const client = db.client as { acquireConnection(): Promise<unknown> };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () => {
    const h = heldOf(db);
    if (h) {
      const err = new NestedAcquisition(h);
      if (mode === 'throw') return Promise.reject(err);
      warn(err);
    }
    return acquire();
  };
}

/**
 * The same check where a transaction is asked for (`withTenant`), so the error's stack names the
 * caller; the pool's own check above only sees knex's internals.
 */
export function checkNotHolding(db: Knex): void {
  const check = checks.get(db.client);
  const h = heldOf(db);
  if (!check || !h) return;
  const err = new NestedAcquisition(h);
  if (check.mode === 'throw') throw err;
  check.warn(err);
}
