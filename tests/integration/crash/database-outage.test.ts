import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/src/config.ts';
import { appRolePassword, createKnex, ensureAppRole } from '../../../core/src/db/connections.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../core/src/db/embedded.ts';
import { migrateLatest } from '../../../core/src/db/migrate.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { createFieldbook, type Fieldbook } from '../../../core/src/server.ts';
import { withDatabase } from '../../support/global-setup.ts';
import { freePort } from '../../support/ports.ts';

const SECRET = 'outage-test-secret-key-that-is-long-enough-0123456789';
const ME = '{ me { id } }';

/**
 * PostgreSQL stopped under a running Fieldbook (its own cluster, so the other test files keep
 * theirs) and started again: liveness stays up, readiness and every request say 503 with
 * Retry-After and why, the log says so once, and Fieldbook recovers without a restart.
 */
describe('while the database is away', () => {
  let dataDir: string;
  let pgPort: number;
  let pg: EmbeddedDatabase;
  let fieldbook: Fieldbook;
  let url: string;
  const logged: Array<{ level: number; msg: string }> = [];

  const startPostgres = () =>
    startEmbeddedPostgres({ dataDir, port: pgPort, password: 'test', logger: createLogger('silent') });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldbook-outage-'));
    chmodSync(dataDir, 0o755);
    pgPort = await freePort();
    pg = await startPostgres();
    const admin = createKnex(pg.url, 1);
    await admin.raw('create database fieldbook');
    await admin.destroy();
    const ownerUrl = withDatabase(pg.url, 'fieldbook');
    const owner = createKnex(ownerUrl, 2);
    await migrateLatest(owner);
    await ensureAppRole(owner, appRolePassword({ secretKey: SECRET }));
    await owner.destroy();
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    fieldbook = await createFieldbook({
      config: loadConfig(
        { LOG_LEVEL: 'info', PUBLIC_URL: 'http://localhost:3000' },
        { secretKey: SECRET, databaseUrl: ownerUrl },
      ),
      logger,
      migrate: false,
      discoverPlugins: false,
      jobs: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
    });
    url = await fieldbook.listen(0, '127.0.0.1');
  }, 120_000);
  afterAll(async () => {
    await fieldbook?.close();
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs on an embedded PostgreSQL that flushes each commit to disk (only the test runs’ own skip it)', async () => {
    const admin = createKnex(pg.url, 1);
    try {
      const settings = await admin.raw(
        "select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes') order by name",
      );
      expect(settings.rows).toEqual([
        { name: 'fsync', setting: 'on' },
        { name: 'full_page_writes', setting: 'on' },
        { name: 'synchronous_commit', setting: 'on' },
      ]);
    } finally {
      await admin.destroy();
    }
  });

  const graphql = (query: string) =>
    fetch(`${url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });

  async function waitForStatus(path: string, status: number): Promise<Response> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(`${url}${path}`);
      if (res.status === status) return res;
      if (Date.now() > deadline) throw new Error(`${path} still answers ${res.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('is ready while the database and the queue answer', async () => {
    const res = await fetch(`${url}/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, database: 'ok', queue: 'ok' });
  });

  it('answers 503 with Retry-After and says it is reconnecting, logs it once, and recovers', {
    timeout: 120_000,
  }, async () => {
    await pg.stop();
    const notReady = await waitForStatus('/ready', 503);
    expect(notReady.headers.get('retry-after')).toBe('5');
    expect(await notReady.json()).toMatchObject({ ok: false, database: 'unavailable' });
    expect((await fetch(`${url}/ping`)).status).toBe(200); // alive: nothing to restart

    const res = await graphql(ME);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = (await res.json()) as { errors: Array<{ message: string; extensions: { errorCode: string } }> };
    expect(body.errors[0]!.extensions.errorCode).toBe('SERVICE_UNAVAILABLE');
    expect(body.errors[0]!.message).toMatch(/reconnecting to its database/);

    // Three seconds of traffic and of job pollers meeting the outage.
    const until = Date.now() + 3000;
    let answered = 0;
    while (Date.now() < until) {
      const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await graphql(ME)).status));
      expect(statuses.every((s) => s === 503)).toBe(true);
      answered += statuses.length;
    }
    expect(answered).toBeGreaterThan(50);
    const loud = logged.filter((l) => l.level >= 40);
    expect(loud.map((l) => l.msg)).toEqual(['the database is unavailable; Fieldbook keeps reconnecting']);

    pg = await startPostgres();
    await waitForStatus('/ready', 200);
    const after = await graphql(ME);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ data: { me: null } });
    expect(logged.some((l) => l.msg === 'the database is back')).toBe(true);
  });
});
