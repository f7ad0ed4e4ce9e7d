import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/** A Fieldbook started as `fieldbook` would be, as a process of its own that a test can kill -9. */
export interface AppProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
}

/**
 * Node's flags as `npm start` gives them: plugin sandboxes need Node without its startup snapshot,
 * and Node runs the TypeScript itself (its type stripping, which also turns parameter properties
 * into plain JavaScript), no loader in between.
 */
export const START_FLAGS = [
  '--no-node-snapshot',
  '--experimental-transform-types',
  '--disable-warning=ExperimentalWarning',
];

export function startApp(env: Record<string, string>, args: string[] = []): AppProcess {
  const child = spawn(process.execPath, [...START_FLAGS, join(root, 'core/src/bin/fieldbook.ts'), ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Polls `url` until it answers 200; fails with what the process printed if it exits or times out. */
export async function waitForOk(app: AppProcess, url: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  let exited = false;
  void app.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`Fieldbook exited before ${url} answered:\n${app.output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${url}:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** True while `pid` runs; a zombie (exited, its parent has not collected it yet) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
  } catch {
    // no /proc here: ask the process itself
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Log lines at warn level or above (pino levels 40+), and lines that are not JSON at all. */
export function noisyLines(output: string): string[] {
  return output
    .split('\n')
    .filter(Boolean)
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level: number }).level >= 40;
      } catch {
        return true;
      }
    });
}

/**
 * Starts a worker script of this folder (`worker-process.ts` unless another is named) against
 * `databaseUrl` and resolves once it says its workers poll.
 */
export function spawnWorker(
  databaseUrl: string,
  secretKey: string,
  heartbeatSeconds: number,
  script = 'worker-process.ts',
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--no-node-snapshot', '--import', 'tsx', join(root, 'tests/integration/crash', script)],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        SECRET_KEY: secretKey,
        HEARTBEAT_SECONDS: String(heartbeatSeconds),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
}

/** SIGKILL, as a crash would; resolves once the process is gone. */
export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Polls until `check` returns something other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
