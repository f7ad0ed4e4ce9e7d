import type { SessionAuth } from '../api/graphql-client.ts';
import type { AuthPayload } from '../api/operations.ts';

/** Renew this long before the access token expires, so a request never carries a dead one. */
const RENEW_MARGIN_MS = 30_000;
const STORAGE_KEY = 'fieldbook.session';
const LOCK_NAME = 'fieldbook-session-renewal';

interface StoredToken {
  token: string;
  expiresAt: number;
}

export interface SessionStoreOptions {
  /** Swaps the refresh cookie for a new session; throws when the session is over. */
  refresh(): Promise<AuthPayload>;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  now?: () => number;
  /** Cross-tab mutual exclusion (the Web Locks API); tabs share the rotating refresh cookie. */
  locks?: { request<T>(name: string, cb: () => Promise<T>): Promise<T> } | null;
}

type Listener = (event: { type: 'renewed'; payload: AuthPayload } | { type: 'ended'; message: string }) => void;

/**
 * The access token of this tab. It lives in memory and in sessionStorage (so a reload keeps it);
 * the refresh token is an httpOnly cookie the page never sees. Renewals are shared: many requests
 * that find the token expired wait for one renewal, and tabs take turns through a lock, because
 * each renewal rotates the cookie and an old cookie no longer works.
 */
export class SessionStore implements SessionAuth {
  private current: StoredToken | null = null;
  private pending: Promise<string | null> | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly now: () => number;

  constructor(private readonly opts: SessionStoreOptions) {
    this.now = opts.now ?? Date.now;
    try {
      const raw = opts.storage?.getItem(STORAGE_KEY);
      if (raw) this.current = JSON.parse(raw) as StoredToken;
    } catch {
      this.current = null;
    }
  }

  /** True when a token is held (it may still need renewing). */
  get hasToken(): boolean {
    return this.current !== null;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps the token of a fresh sign-in. */
  accept(payload: Pick<AuthPayload, 'accessToken' | 'expiresAt'>): void {
    this.current = { token: payload.accessToken, expiresAt: Date.parse(payload.expiresAt) };
    this.opts.storage?.setItem(STORAGE_KEY, JSON.stringify(this.current));
  }

  clear(): void {
    this.current = null;
    this.opts.storage?.removeItem(STORAGE_KEY);
  }

  async accessToken(): Promise<string | null> {
    if (!this.current) return this.pending ? this.pending : null;
    if (this.current.expiresAt - RENEW_MARGIN_MS > this.now()) return this.current.token;
    return this.renew();
  }

  /** Renews the session from the refresh cookie; null (and listeners told) when it has ended. */
  renew(): Promise<string | null> {
    this.pending ??= this.renewOnce().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  ended(message: string): void {
    this.clear();
    for (const l of [...this.listeners]) l({ type: 'ended', message });
  }

  private async renewOnce(): Promise<string | null> {
    const run = async () => {
      try {
        const payload = await this.opts.refresh();
        this.accept(payload);
        for (const l of [...this.listeners]) l({ type: 'renewed', payload });
        return payload.accessToken;
      } catch {
        this.clear();
        return null;
      }
    };
    return this.opts.locks ? this.opts.locks.request(LOCK_NAME, run) : run();
  }
}
