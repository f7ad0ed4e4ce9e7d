import { describe, expect, it, vi } from 'vitest';
import { createForeground } from './foreground.ts';

describe('foreground', () => {
  it('is busy while requests arrive faster than the threshold, and quiet once they stop', () => {
    let now = 1_000_000;
    const foreground = createForeground({ busyPerSecond: 100, now: () => now });
    // 100/s over the 250 ms window is 25 requests: 24 are not yet a burst.
    for (let i = 0; i < 24; i++) foreground.arrived();
    expect(foreground.busy()).toBe(false);
    foreground.arrived();
    expect(foreground.busy()).toBe(true);
    // Still within the window ...
    now += 200;
    expect(foreground.busy()).toBe(true);
    // ... and past it, the old arrivals no longer count, even where their slot is reused.
    now += 100;
    expect(foreground.busy()).toBe(false);
    foreground.arrived();
    expect(foreground.busy()).toBe(false);
  });

  it('counts a steady rate spread over the window, not only arrivals in one slot', () => {
    let now = 5_000_000;
    const foreground = createForeground({ busyPerSecond: 200, now: () => now });
    // 250 requests a second, 5 every 20 ms, for a second.
    for (let t = 0; t < 1000; t += 20) {
      now += 20;
      for (let i = 0; i < 5; i++) foreground.arrived();
    }
    expect(foreground.busy()).toBe(true);
  });

  it('lets background work start at once when quiet, waits out a burst, and never waits longer than its bound', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    try {
      const foreground = createForeground({ busyPerSecond: 100, maxWaitMs: 300 });
      let done = false;
      await foreground.yieldTo().then(() => (done = true));
      expect(done).toBe(true);

      // 10 requests every 25 ms (400/s) for as long as the test runs: a burst that does not end.
      const arrive = () => {
        for (let i = 0; i < 10; i++) foreground.arrived();
      };
      for (let i = 0; i < 3; i++) arrive();
      expect(foreground.busy()).toBe(true);
      done = false;
      const waiting = foreground.yieldTo().then(() => (done = true));
      for (let t = 0; t < 275; t += 25) {
        arrive();
        await vi.advanceTimersByTimeAsync(25);
      }
      expect(done).toBe(false);
      for (let t = 0; t < 100; t += 25) {
        arrive();
        await vi.advanceTimersByTimeAsync(25);
      }
      expect(done).toBe(true);
      await waiting;

      // A burst that ends: the wait ends with it, well before the bound.
      const short = createForeground({ busyPerSecond: 100, maxWaitMs: 60_000 });
      for (let i = 0; i < 40; i++) short.arrived();
      done = false;
      void short.yieldTo().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(200);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(150);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
