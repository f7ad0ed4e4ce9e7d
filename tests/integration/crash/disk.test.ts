import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/ports.ts';
import { startApp, waitForOk } from './app-process.ts';

const SECRET_KEY = 'disk-test-secret-key-that-is-long-enough-0123456789';

/** Mounting needs root; elsewhere these cases are left to the classifier's unit tests. */
function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'fieldbook-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * `npm start` on a data folder whose disk is too small or read-only: it says so, which folder,
 * and how much space it needs, instead of PostgreSQL's words and advice about permissions.
 */
describe.skipIf(!canMount())('starting on a disk it cannot write to', () => {
  let root: string;
  const mounts: string[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'fieldbook-disk-'));
    chmodSync(root, 0o755); // the embedded server runs as the `postgres` user
    env = {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      SECRET_KEY,
    };
  });
  afterAll(() => {
    for (const m of mounts.reverse()) execFileSync('umount', ['-l', m], { stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  });

  const mount = (args: string[], at: string) => {
    execFileSync('mount', [...args, at]);
    mounts.push(at);
  };

  it('says the disk is full, which folder, and how much space it needs', { timeout: 120_000 }, async () => {
    const tiny = join(root, 'tiny');
    mkdirSync(tiny);
    mount(['-t', 'tmpfs', '-o', 'size=20m,mode=0755', 'tmpfs'], tiny);
    const app = startApp({ ...env, FIELDBOOK_DATA_DIR: join(tiny, 'data') });
    expect(await app.exited).toBe(1);
    const printed = app.output();
    expect(printed).toContain(`Fieldbook could not start: The disk holding ${join(tiny, 'data')}`);
    expect(printed).toMatch(/is full \(\d+ MB free\)/);
    expect(printed).toContain('Free at least 100 MB on that disk');
    expect(printed).not.toContain('readable');
  });

  it('says the disk is read-only when the data folder cannot be made', { timeout: 60_000 }, async () => {
    const frozen = join(root, 'frozen');
    mkdirSync(frozen);
    mount(['--bind', frozen], frozen);
    execFileSync('mount', ['-o', 'remount,ro,bind', frozen]);
    const app = startApp({ ...env, FIELDBOOK_DATA_DIR: join(frozen, 'data') });
    expect(await app.exited).toBe(1);
    const printed = app.output();
    expect(printed).toContain(`Fieldbook could not start: The disk holding ${join(frozen, 'data')} is read-only`);
    expect(printed).not.toContain('ENOENT');
    expect(printed).not.toContain('EROFS');
  });

  it('says the disk is read-only when it holds a database from an earlier start', { timeout: 180_000 }, async () => {
    const dataDir = join(root, 'earlier');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const first = startApp({ ...env, FIELDBOOK_DATA_DIR: dataDir });
    await waitForOk(first, `http://127.0.0.1:${env.PORT}/ping`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    mount(['--bind', dataDir], dataDir);
    execFileSync('mount', ['-o', 'remount,ro,bind', dataDir]);
    const app = startApp({ ...env, FIELDBOOK_DATA_DIR: dataDir });
    expect(await app.exited).toBe(1);
    const printed = app.output();
    expect(printed).toContain(`Fieldbook could not start: The disk holding ${join(dataDir, 'pg')} is read-only`);
    expect(printed).toContain('Mount that disk writable, or set FIELDBOOK_DATA_DIR');
    expect(printed).not.toContain('readable and writable');
  });
});
