import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { StartupPhases } from '../core/src/server.ts';
import { freePort } from './support.ts';

/** Where a start spends its time, in milliseconds, as Fieldbook logs it once it listens. */
export type StartPhases = {
  /** `npm` itself and the web build's staleness check, before Fieldbook's process starts. */
  launcher: number;
  /** Node, the TypeScript loader and importing core. */
  boot: number;
  importModules: number;
} & StartupPhases;

export interface StartTiming {
  /** Milliseconds from spawning `npm start` to the first 200 from /ping. */
  ms: number;
  phases: StartPhases | null;
}

const root = join(import.meta.dirname, '..');

interface RunningLine {
  pid: number;
  processStartedAt?: number;
  startup?: Omit<StartPhases, 'launcher'>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `npm start` as a person would (the web build check included) on the given data folder,
 * times it to the first 200 from /ping, reads the breakdown Fieldbook logs, then stops it with
 * SIGTERM and waits until its process is gone.
 */
export async function timeStart(dataDir: string, pgPort: number): Promise<StartTiming> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    // A process group of its own, so that SIGTERM reaches Fieldbook as Ctrl-C would.
    detached: true,
    env: {
      ...process.env,
      FIELDBOOK_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const runningLine = (): (RunningLine & { time: number }) | null => {
    for (const line of stdout.split('\n')) {
      if (!line.includes('Fieldbook is running')) continue;
      return JSON.parse(line) as RunningLine & { time: number };
    }
    return null;
  };
  let ms = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Fieldbook exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
      if (performance.now() - started > 180_000) throw new Error('Fieldbook did not answer /ping within 3 minutes');
      const ok = await fetch(`http://127.0.0.1:${port}/ping`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) {
        ms = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    // The log line may trail the first answer by a moment.
    while (!runningLine() && performance.now() - started < ms + 5000) await new Promise((r) => setTimeout(r, 25));
  } finally {
    const line = runningLine();
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // npm may exit before Fieldbook has stopped its embedded PostgreSQL, which the next start needs.
    while (line && isAlive(line.pid)) await new Promise((r) => setTimeout(r, 25));
  }
  const line = runningLine();
  if (!line?.startup || !line.processStartedAt) return { ms, phases: null };
  // Everything before Fieldbook's own process started was npm's and the web build check's.
  return { ms, phases: { launcher: Math.max(0, line.processStartedAt - spawnedAt), ...line.startup } };
}
