import { mkdtempSync, readFileSync, rmSync, chmodSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { deriveKey } from '../../../core/src/config.ts';
import { readPostmasterLock } from '../../../core/src/db/orphaned-postgres.ts';
import { freePort } from '../../support/ports.ts';
import { isAlive, noisyLines, startApp, waitFor, waitForOk, type AppProcess } from './app-process.ts';

const SECRET_KEY = 'restart-test-secret-key-that-is-long-enough-0123456789';

/**
 * `npm start` on the embedded database, killed without warning (kill -9) and started again on
 * the same data folder, as a person at a terminal would.
 */
describe('starting again after a crash', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let url: string;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldbook-crash-'));
    chmodSync(dataDir, 0o755); // the embedded server may run as the `postgres` user
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      FIELDBOOK_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(await freePort()),
      SECRET_KEY,
    };
  });
  afterAll(async () => {
    for (const app of apps) if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
    const lock = readPostmasterLock(join(dataDir, 'pg'));
    if (lock && isAlive(lock.pid)) process.kill(lock.pid, 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (extra: Record<string, string> = {}) => {
    const app = startApp({ ...env, ...extra });
    apps.push(app);
    return app;
  };

  it('finds the PostgreSQL a killed start left running, stops it, and starts', { timeout: 180_000 }, async () => {
    const first = start();
    await waitForOk(first, `${url}/ping`);
    const orphan = readPostmasterLock(join(dataDir, 'pg'))!;
    expect(orphan.pid).toBeGreaterThan(0);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(orphan.pid)).toBe(true); // left behind, holding the data folder

    const second = start();
    await waitForOk(second, `${url}/ping`);
    expect(isAlive(orphan.pid)).toBe(false);
    expect(readPostmasterLock(join(dataDir, 'pg'))!.pid).not.toBe(orphan.pid);
    expect(second.output()).toContain('still running');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(readPostmasterLock(join(dataDir, 'pg'))).toBeNull(); // a normal stop stops its PostgreSQL
  });

  it('starts and stops quietly when nothing is wrong', { timeout: 90_000 }, async () => {
    const app = start();
    await waitForOk(app, `${url}/ping`);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    expect(noisyLines(app.output())).toEqual([]);
  });

  it('refuses to start beside a Fieldbook still running on the same data folder, and leaves it running', {
    timeout: 120_000,
  }, async () => {
    const running = start();
    await waitForOk(running, `${url}/ping`);
    const second = start({ PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Fieldbook could not start: Another Fieldbook');
    expect((await fetch(`${url}/ready`)).status).toBe(200); // its database was left alone
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('removes a lock file whose PostgreSQL is gone and starts', { timeout: 90_000 }, async () => {
    // A pid no process has: the server that wrote the file died with the machine.
    const lockPath = join(dataDir, 'pg', 'postmaster.pid');
    writeFileSync(
      lockPath,
      `999999\n${join(dataDir, 'pg')}\n1795629666\n${env.EMBEDDED_PG_PORT}\n/tmp\nlocalhost\n  2155758        14\nready   \n`,
    );
    const app = start();
    await waitForOk(app, `${url}/ping`);
    expect(readFileSync(lockPath, 'utf8').split('\n')[0]).not.toBe('999999');
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  it('says what happened and what to do when the embedded PostgreSQL cannot start', { timeout: 90_000 }, async () => {
    // Another program holds the embedded PostgreSQL's port.
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(Number(env.EMBEDDED_PG_PORT), r));
    try {
      const app = start();
      expect(await app.exited).toBe(1);
      const printed = app.output();
      expect(printed).not.toMatch(/^undefined$/m);
      expect(printed).toContain('Fieldbook could not start: The embedded PostgreSQL');
      expect(printed).toContain('EMBEDDED_PG_PORT');
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });
  /** A superuser connection to the running Fieldbook's embedded cluster. */
  async function superuser(): Promise<pg.Client> {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: Number(env.EMBEDDED_PG_PORT),
      user: 'postgres',
      password: deriveKey({ secretKey: SECRET_KEY }, 'embedded-superuser').toString('hex'),
      database: 'fieldbook',
    });
    await client.connect();
    return client;
  }

  /** The postmaster's pid once it differs from `old` and the lock file says it is ready. */
  const newPostmaster = (old: number) =>
    waitFor(
      'a new embedded PostgreSQL',
      async () => {
        const lock = readPostmasterLock(join(dataDir, 'pg'));
        return lock && lock.pid !== old && isAlive(lock.pid) ? lock.pid : undefined;
      },
      60_000,
    );

  it('stops without starting its PostgreSQL again when Ctrl-C reaches both (one process group)', {
    timeout: 120_000,
  }, async () => {
    const app = start();
    await waitForOk(app, `${url}/ready`);
    const postmaster = readPostmasterLock(join(dataDir, 'pg'))!.pid;
    // PostgreSQL may hear it first: it shuts down at once, before Fieldbook has begun to stop.
    process.kill(postmaster, 'SIGINT');
    app.child.kill('SIGINT');
    expect(await app.exited).toBe(0);
    expect(app.output()).not.toContain('stopped unexpectedly');
    expect(app.output()).not.toContain('starting the embedded PostgreSQL again');
    expect(readPostmasterLock(join(dataDir, 'pg'))).toBeNull();
  });

  it('starts its embedded PostgreSQL again when it dies, and is ready again with the data intact', {
    timeout: 180_000,
  }, async () => {
    const app = start();
    await waitForOk(app, `${url}/ready`);
    const before = await superuser();
    await before.query('create table restart_probe (said text)');
    await before.query("insert into restart_probe values ('kept')");
    await before.end().catch(() => undefined);
    const postmaster = readPostmasterLock(join(dataDir, 'pg'))!.pid;

    try {
      process.kill(postmaster, 'SIGKILL');
      await newPostmaster(postmaster);
      await waitForOk(app, `${url}/ready`, 60_000);
      expect((await fetch(`${url}/ping`)).status).toBe(200);
      const after = await superuser();
      try {
        expect((await after.query('select said from restart_probe')).rows).toEqual([{ said: 'kept' }]);
      } finally {
        await after.end();
      }
      const printed = app.output();
      expect(printed).toContain('the embedded PostgreSQL stopped unexpectedly (killed by SIGKILL)');
      expect(printed).toContain('starting the embedded PostgreSQL again (attempt 1 of 8)');
      expect(printed).toContain('the embedded PostgreSQL is running again');
    } finally {
      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
    }
    expect(readPostmasterLock(join(dataDir, 'pg'))).toBeNull(); // the restarted one is stopped too
  });

  it('fails its liveness check when its embedded PostgreSQL cannot be started again', {
    timeout: 180_000,
  }, async () => {
    const app = start({ EMBEDDED_PG_RESTART_ATTEMPTS: '2' });
    await waitForOk(app, `${url}/ready`);
    // A setting PostgreSQL reads only as it starts: the running server goes on, a new one refuses.
    const conf = join(dataDir, 'pg', 'postgresql.conf');
    const original = readFileSync(conf, 'utf8');
    writeFileSync(conf, `${original}\nthis is not a setting\n`);
    try {
      const postmaster = readPostmasterLock(join(dataDir, 'pg'))!.pid;
      process.kill(postmaster, 'SIGKILL');
      const ping = await waitFor(
        '/ping to fail',
        async () => {
          const res = await fetch(`${url}/ping`);
          return res.status === 200 ? undefined : res;
        },
        60_000,
      );
      expect(ping.status).toBe(503);
      expect(await ping.json()).toMatchObject({ ok: false, database: 'stopped' });
      expect((await fetch(`${url}/ready`)).status).toBe(503);
      const printed = app.output();
      expect(printed).toContain('starting the embedded PostgreSQL again (attempt 2 of 2)');
      expect(printed).toContain('could not be started again');
    } finally {
      writeFileSync(conf, original);
      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
    }
  });
});
