/**
 * A small in-process cache with a time limit and a size limit (oldest entries go first). It holds
 * what a hot path would otherwise read on every request; whoever fills it also evicts on change,
 * through `Invalidations`, so the time limit only bounds how long a missed eviction could last.
 */
export class MemoryCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches, e.g. all sessions of one person. */
  deleteWhere(match: (value: V, key: string) => boolean): void {
    for (const [key, { value }] of this.entries) if (match(value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
