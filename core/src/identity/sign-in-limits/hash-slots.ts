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
 * hashes queue in arrival order and give up after `queueMs`, so the caller hears "busy, try again"
 * quickly instead of hanging. Per process on purpose: memory and threads are per process.
 */
export class HashSlots {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueMs: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.concurrency) {
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
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new HashQueueTimeout(this.queueMs));
        }, this.queueMs),
      };
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.start();
  }
}
