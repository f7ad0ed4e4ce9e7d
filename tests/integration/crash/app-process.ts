import { spawn, type ChildProcess } from 'node:child_process';
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

export function startApp(env: Record<string, string>, args: string[] = []): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'core/src/bin/fieldbook.ts'), ...args], {
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
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${url}:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function isAlive(pid: number): boolean {
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
