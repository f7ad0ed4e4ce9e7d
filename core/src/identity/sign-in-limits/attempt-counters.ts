import type { Knex } from 'knex';

export interface Allowance {
  limit: number;
  windowSeconds: number;
}

/** One counter to take an attempt from. */
export interface CounterKey {
  key: string;
  allowance: Allowance;
  /** Attempts this one counts as (a batch of requests counts each of them); 1 unless said. */
  count?: number;
}

/** The counters that were over their limit, and when all of them allow attempts again. */
export interface Refusal {
  keys: string[];
  retryAfterSeconds: number;
}

const CLEANUP_EVERY_MS = 60_000;

/**
 * Fixed-window attempt counters in PostgreSQL (`sign_in_limits`, an unlogged table).
 *
 * Why in the database rather than in memory: web processes scale out behind a load balancer, and
 * an in-memory bucket per process would multiply every allowance by the number of processes
 * (and forget it on each restart). One upsert per attempt costs a round trip that is small next
 * to the password hash it guards. Fixed windows rather than sliding ones: one row per key and one
 * statement per attempt, and at worst twice the allowance across a window boundary, which is
 * still far below what would make guessing worthwhile.
 */
export class AttemptCounters {
  private lastCleanup = 0;

  constructor(private readonly db: Knex) {}

  /**
   * Takes one attempt (or `count`) from each counter in a single statement. Returns null when every counter
   * still had room, else which were over and how long until they all free up.
   */
  async take(keys: readonly CounterKey[]): Promise<Refusal | null> {
    if (!keys.length) return null;
    this.cleanUpNowAndThen();
    const values = keys.map(() => '(?, now() + make_interval(secs => ?), ?::int)').join(', ');
    const { rows } = await this.db.raw<{ rows: Array<{ key: string; attempts: number; retry_after: string }> }>(
      `insert into sign_in_limits as l (key, resets_at, attempts) values ${values}
       on conflict (key) do update set
         attempts = case when l.resets_at <= now() then excluded.attempts else l.attempts + excluded.attempts end,
         resets_at = case when l.resets_at <= now() then excluded.resets_at else l.resets_at end
       returning key, attempts, ceil(extract(epoch from (resets_at - now())))::text as retry_after`,
      keys.flatMap((k) => [k.key, k.allowance.windowSeconds, k.count ?? 1]),
    );
    const limits = new Map(keys.map((k) => [k.key, k.allowance.limit]));
    const over = rows.filter((r) => r.attempts > (limits.get(r.key) ?? Infinity));
    if (!over.length) return null;
    return { keys: over.map((r) => r.key), retryAfterSeconds: Math.max(1, ...over.map((r) => Number(r.retry_after))) };
  }

  /** Gives attempts back (a successful sign-in is not abuse), within the current windows. */
  async giveBack(keys: readonly string[]): Promise<void> {
    if (!keys.length) return;
    await this.db('sign_in_limits').whereIn('key', keys).where('attempts', '>', 0).decrement('attempts', 1);
  }

  /** Forgets a counter, e.g. an account's once its owner proved who they are by email. */
  async clear(keys: readonly string[]): Promise<void> {
    if (keys.length) await this.db('sign_in_limits').whereIn('key', keys).delete();
  }

  /** Expired windows are deleted by whichever process counts next, at most once a minute each. */
  private cleanUpNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = now;
    this.db.raw('delete from sign_in_limits where resets_at <= now()').catch(() => {
      // Left for the next cleanup; an expired row is reset on its next use anyway.
    });
  }
}
