/** Why a caller did not get a slot: the line was full, or it waited its whole queue time. */
export class SlotRefused extends Error {
  constructor(readonly reason: 'queue-full' | 'timed-out') {
    super(reason === 'queue-full' ? 'no room in the queue' : 'no slot within the queue time');
    this.name = 'SlotRefused';
  }
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

export interface SlotLimits {
  /** Holders of one key at once. */
  concurrency: number;
  /** Callers of one key that may wait for a slot; more are refused at once. */
  queue: number;
  /** How long a caller waits for a slot before it is refused. */
  queueMs: number;
}

/**
 * Bounds how many holders each key (a member, a workspace) has at once in this process; more wait
 * in the key's own line, first come first served, and a caller is refused when its line is full or
 * it waited `queueMs`, so an overloaded key hears "busy" quickly instead of everyone hanging. Keys
 * are independent: one key's line never delays another key. Per process on purpose: what it
 * guards (a pool's connections, a process's CPU) is per process.
 */
export class KeyedSlots {
  private readonly running = new Map<string, number>();
  private readonly lines = new Map<string, Waiter[]>();

  constructor(private readonly limits: SlotLimits) {}

  /** Holders of `key` right now. */
  holders(key: string): number {
    return this.running.get(key) ?? 0;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Waits for a slot of `key`; the answer gives it back (once, however often it is called). */
  async acquire(key: string): Promise<() => void> {
    const line = this.lines.get(key);
    if (this.holders(key) < this.limits.concurrency && !line?.length) {
      this.running.set(key, this.holders(key) + 1);
      return this.releaser(key);
    }
    if ((line?.length ?? 0) >= this.limits.queue) throw new SlotRefused('queue-full');
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          this.running.set(key, this.holders(key) + 1);
          resolve();
        },
        timer: setTimeout(() => {
          this.leave(key, waiter);
          reject(new SlotRefused('timed-out'));
        }, this.limits.queueMs),
      };
      if (line) line.push(waiter);
      else this.lines.set(key, [waiter]);
    });
    return this.releaser(key);
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.holders(key) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
      const line = this.lines.get(key);
      const next = line?.shift();
      if (line && !line.length) this.lines.delete(key);
      next?.start();
    };
  }

  private leave(key: string, waiter: Waiter): void {
    const line = this.lines.get(key);
    if (!line) return;
    const at = line.indexOf(waiter);
    if (at >= 0) line.splice(at, 1);
    if (!line.length) this.lines.delete(key);
  }
}
