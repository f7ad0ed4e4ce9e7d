import { describe, expect, it } from 'vitest';
import type { AuthPayload } from '../api/operations.ts';
import { SessionStore } from './session-store.ts';

const payload = (token: string, expiresInMs: number, now: number): AuthPayload => ({
  accessToken: token,
  expiresAt: new Date(now + expiresInMs).toISOString(),
  user: { id: 'u1', email: 'a@example.com', name: 'A', emailConfirmed: true, hasPassword: true },
  availableTeams: [],
  teamId: null,
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
}

describe('session store', () => {
  it('hands out a fresh token as it is, and renews one about to expire', async () => {
    let now = 1_000_000;
    let refreshes = 0;
    const store = new SessionStore({
      refresh: async () => (refreshes++, payload(`t${refreshes + 1}`, 900_000, now)),
      now: () => now,
    });
    store.accept(payload('t1', 900_000, now));
    expect(await store.accessToken()).toBe('t1');
    now += 890_000; // 10 s left: within the renewal margin
    expect(await store.accessToken()).toBe('t2');
    expect(refreshes).toBe(1);
  });

  it('shares one renewal between requests that need it at once', async () => {
    let refreshes = 0;
    const store = new SessionStore({ refresh: async () => (refreshes++, payload('new', 900_000, Date.now())) });
    const tokens = await Promise.all([store.renew(), store.renew(), store.renew()]);
    expect(tokens).toEqual(['new', 'new', 'new']);
    expect(refreshes).toBe(1);
  });

  it('forgets the token when the session cannot be renewed', async () => {
    const storage = memoryStorage();
    const store = new SessionStore({ refresh: async () => Promise.reject(new Error('UNAUTHENTICATED')), storage });
    store.accept(payload('t1', 900_000, Date.now()));
    expect(storage.map.size).toBe(1);
    expect(await store.renew()).toBeNull();
    expect(store.hasToken).toBe(false);
    expect(storage.map.size).toBe(0);
  });

  it('keeps the token across a reload through its storage', () => {
    const storage = memoryStorage();
    new SessionStore({ refresh: async () => Promise.reject(new Error('x')), storage }).accept(
      payload('kept', 900_000, Date.now()),
    );
    const reloaded = new SessionStore({ refresh: async () => Promise.reject(new Error('x')), storage });
    expect(reloaded.hasToken).toBe(true);
  });

  it('tells listeners when the session ended', () => {
    const store = new SessionStore({ refresh: async () => Promise.reject(new Error('x')) });
    const seen: string[] = [];
    store.subscribe((e) => seen.push(e.type === 'ended' ? e.message : 'renewed'));
    store.ended('Your session has expired. Please sign in again.');
    expect(seen).toEqual(['Your session has expired. Please sign in again.']);
  });
});
