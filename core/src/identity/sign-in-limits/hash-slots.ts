/** Thrown when a hash waited its whole queue time for a slot. */
export class HashQueueTimeout extends Error {
  constructor(readonly waitedMs: number) {
    super(`no password hash slot within ${waitedMs} ms`);
    this.name = 'HashQueueTimeout';
  }
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/**
 * Bounds how many password hashes run at once in this process. Each scrypt takes 128 MiB and a
 * thread of libuv's small pool for a noticeable time; unbounded, a flood of attempts makes every
 * hash (a real person's too) wait behind all the others, and can exhaust memory. With slots, extra
 * hashes queue and give up after `queueMs`, so the caller hears "busy, try again" quickly instead
 * of hanging. The queue is fair between clients: each client (address) has its own line and a
 * free slot goes to the next line in turn, so a flood from one address delays someone else's
 * sign-in by about one hash, not by the whole flood. Per process on purpose: memory and threads
 * are per process.
 */
export class HashSlots {
  private running = 0;
  /** One line of waiters per client; the map's order is the turn order. */
  private readonly lines = new Map<string, Waiter[]>();

  constructor(
    private readonly concurrency: number,
    private readonly queueMs: number,
  ) {}

  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(client);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(client: string): Promise<void> {
    if (this.running < this.concurrency && this.lines.size === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          this.running++;
          resolve();
        },
        timer: setTimeout(() => {
          this.leave(client, waiter);
          reject(new HashQueueTimeout(this.queueMs));
        }, this.queueMs),
      };
      const line = this.lines.get(client);
      if (line) line.push(waiter);
      else this.lines.set(client, [waiter]);
    });
  }

  private release(): void {
    this.running--;
    this.nextInTurn()?.start();
  }

  /** The first waiter of the line whose turn it is; that line then goes to the back. */
  private nextInTurn(): Waiter | undefined {
    const first = this.lines.entries().next();
    if (first.done) return undefined;
    const [client, line] = first.value;
    const waiter = line.shift();
    this.lines.delete(client);
    if (line.length) this.lines.set(client, line);
    return waiter;
  }

  private leave(client: string, waiter: Waiter): void {
    const line = this.lines.get(client);
    if (!line) return;
    const at = line.indexOf(waiter);
    if (at >= 0) line.splice(at, 1);
    if (!line.length) this.lines.delete(client);
  }
}
