/**
 * Requests come first. A process that both serves requests and runs jobs (the `all` role that
 * `npm start` runs) shares one event loop and the machine's cores between them: during a burst of
 * requests (a provider's webhook deliveries, a crowd opening pages) every batch of jobs started
 * beside it takes time from the answers. While requests arrive faster than `busyPerSecond`, a job
 * batch waits to start, for `maxWaitMs` at most so that background work never stops, and the
 * queues catch up once the burst is over. Processes of the `worker` role have no requests and no
 * such wait.
 */
export interface Foreground {
  /** Counts a request as it arrives. */
  arrived(): void;
  /** Whether requests are arriving faster than the threshold now. */
  busy(): boolean;
  /** Resolves when background work may start: at once when the process is not busy. */
  yieldTo(): Promise<void>;
}

export interface ForegroundOptions {
  /** Requests per second above which the process counts as busy (default 200). */
  busyPerSecond?: number;
  /** The longest a job batch waits for a burst to end (default 5 s). */
  maxWaitMs?: number;
  now?: () => number;
}

/** Arrivals are counted in slots of this many milliseconds; the rate is over the last WINDOW_SLOTS. */
const SLOT_MS = 50;
const WINDOW_SLOTS = 5;

export function createForeground(opts: ForegroundOptions = {}): Foreground {
  const now = opts.now ?? Date.now;
  const busyPerSecond = opts.busyPerSecond ?? 200;
  const maxWaitMs = opts.maxWaitMs ?? 5_000;
  const threshold = (busyPerSecond * SLOT_MS * WINDOW_SLOTS) / 1000;
  // A ring of counts, each slot tagged with the slot number it counts, so stale slots read as empty.
  const counts = new Array<number>(WINDOW_SLOTS).fill(0);
  const slots = new Array<number>(WINDOW_SLOTS).fill(-1);

  const busy = (): boolean => {
    const current = Math.floor(now() / SLOT_MS);
    let total = 0;
    for (let i = 0; i < WINDOW_SLOTS; i++) if (current - slots[i]! < WINDOW_SLOTS) total += counts[i]!;
    return total >= threshold;
  };

  return {
    arrived() {
      const slot = Math.floor(now() / SLOT_MS);
      const i = slot % WINDOW_SLOTS;
      if (slots[i] !== slot) {
        slots[i] = slot;
        counts[i] = 0;
      }
      counts[i]!++;
    },
    busy,
    async yieldTo() {
      const until = now() + maxWaitMs;
      while (busy() && now() < until) await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
    },
  };
}
