interface Entry<T> {
  fingerprint: string;
  expires: number;
  value: T;
}

/** Links whose figures are kept at once; the least recently stored go first. */
const MAX_ENTRIES = 500;

/**
 * A shared dashboard's figures, reused for `ttlMs`: a link opened by many people at once (posted
 * in a company channel) computes its 50 charts once, not once per viewer. An entry counts only
 * while the layout it was computed for (its fingerprint) is unchanged, so a chart added, a
 * project's public links turned off or a link's maker losing access show at the next request; only
 * the counts may be up to `ttlMs` old. Per process: a second process computes its own.
 */
export class SharedFigures<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly ttlMs: number) {}

  get(key: string, fingerprint: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.fingerprint !== fingerprint || entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, fingerprint: string, value: T): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { fingerprint, expires: Date.now() + this.ttlMs, value });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}
