import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { appRolePassword, createKnex, ensureAppRole } from '../../core/src/db/connections.ts';
import { startEmbeddedPostgres } from '../../core/src/db/embedded.ts';
import { migrateLatest } from '../../core/src/db/migrate.ts';
import { createLogger } from '../../core/src/logger.ts';
import { freePort } from './ports.ts';

export const TEMPLATE_DB = 'fieldbook_template';
export const TEST_SECRET = 'test-secret-key-that-is-long-enough-0123456789';

declare module 'vitest' {
  export interface ProvidedContext {
    pgSuperUrl: string;
    secretKey: string;
  }
}

/**
 * One real PostgreSQL for the whole run: a migrated template database that every test file
 * copies into a fresh database of its own (fast, and isolated).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldbook-test-'));
  chmodSync(dir, 0o755); // the embedded server may run as the `postgres` user
  const pg = await startEmbeddedPostgres({
    dataDir: dir,
    port: await freePort(),
    password: 'test',
    logger: createLogger('silent'),
    durability: 'throwaway',
  });
  const admin = createKnex(pg.url, 1);
  await admin.raw(`create database ${TEMPLATE_DB}`);
  await admin.destroy();
  const templateUrl = withDatabase(pg.url, TEMPLATE_DB);
  const owner = createKnex(templateUrl, 2);
  await migrateLatest(owner);
  await ensureAppRole(owner, appRolePassword({ secretKey: TEST_SECRET }));
  await owner.destroy();

  project.provide('pgSuperUrl', pg.url);
  project.provide('secretKey', TEST_SECRET);
  // The SDK's plugin test host reads these (it may not import test support): it copies the
  // template into a fresh database per host, as createTestDatabase does.
  process.env.FIELDBOOK_TEST_PG_URL = pg.url;
  process.env.FIELDBOOK_TEST_TEMPLATE = TEMPLATE_DB;
  process.env.FIELDBOOK_TEST_SECRET = TEST_SECRET;
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
