import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './support.ts';

export interface StartTiming {
  /** Milliseconds from spawning the process to the first 200 from /ping. */
  ms: number;
}

const root = join(import.meta.dirname, '..');

/**
 * Starts `core/src/bin/fieldbook.ts` as `npm start` would (without the web build) on the given
 * data folder, times it to the first 200 from /ping, then stops it with SIGTERM.
 */
export async function timeStart(dataDir: string, pgPort: number): Promise<StartTiming> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'core/src/bin/fieldbook.ts')], {
    cwd: root,
    env: {
      ...process.env,
      FIELDBOOK_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Fieldbook exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
      if (performance.now() - started > 180_000) throw new Error('Fieldbook did not answer /ping within 3 minutes');
      const ok = await fetch(`http://127.0.0.1:${port}/ping`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return { ms: performance.now() - started };
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    // SIGTERM lets it stop its embedded PostgreSQL, which the next start needs free.
    child.kill('SIGTERM');
    await exited;
  }
}
