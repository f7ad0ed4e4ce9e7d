import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The browser tests serve host-web/dist: build it first when its sources changed. */
export default function globalSetup(): void {
  const root = join(import.meta.dirname, '..', '..', '..');
  const res = spawnSync(process.execPath, [join(root, 'host-web', 'scripts', 'build-if-stale.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error(`Building the web app failed (exit code ${res.status ?? res.signal}).`);
}
