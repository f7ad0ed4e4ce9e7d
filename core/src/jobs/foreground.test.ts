import { describe, expect, it } from 'vitest';
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
    const quiet = createForeground({ busyPerSecond: 100 });
    let started = performance.now();
    await quiet.yieldTo();
    expect(performance.now() - started).toBeLessThan(20);

    const loaded = createForeground({ busyPerSecond: 100, maxWaitMs: 300 });
    const arrive = () => {
      for (let i = 0; i < 10; i++) loaded.arrived();
    };
    for (let i = 0; i < 3; i++) arrive();
    const burst = setInterval(arrive, 10);
    try {
      started = performance.now();
      await loaded.yieldTo();
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(290);
      expect(waited).toBeLessThan(1000);
    } finally {
      clearInterval(burst);
    }
  });
});
