/**
 * What the SDK's plugin testing kit starts: a real Fieldbook with the research module and only the
 * plugins under test, its mail kept in memory. Plugins never import this; the kit loads it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  CoreTesting,
  SentMail,
  TestDatabase,
  TestFieldbook,
  TestFieldbookOptions,
} from '@fieldbook/extensions-sdk/testing';
import { loadConfig } from '../config.ts';
import { appRolePassword, createKnex, ensureAppRole } from '../db/connections.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { migrateLatest } from '../db/migrate.ts';
import type { ExtensionsServices } from '../extensions/module.ts';
import { WEBHOOK_QUEUE } from '../extensions/webhooks/intake.ts';
import { JOB_SCHEMA } from '../jobs/queue.ts';
import type { LoadedModule } from '../kernel/registry.ts';
import { createLogger } from '../logger.ts';
import { createFieldbook } from '../server.ts';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh database copied from a migrated template; answers its URL. */
export async function createDatabaseFromTemplate(superUrl: string, template: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/i.test(template)) throw new Error(`Not a database name: ${template}`);
  const name = `p_${randomBytes(6).toString('hex')}`;
  const admin = createKnex(superUrl, 1);
  try {
    await admin.raw(`create database ${name} template ${template}`);
  } finally {
    await admin.destroy();
  }
  return withDatabase(superUrl, name);
}

const TEMPLATE = 'fieldbook_template';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * An embedded PostgreSQL of its own in a temporary folder, with a template database migrated to
 * this Fieldbook's schema: what a plugin's tests run on when nothing gave them a database.
 * `stop` ends the server and removes the folder.
 */
export async function startTestDatabase(secretKey: string): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldbook-plugin-test-'));
  chmodSync(dir, 0o755); // run as root, the embedded server runs as the `postgres` user, who must reach it
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    pg = await startEmbeddedPostgres({
      dataDir: dir,
      port: await freePort(),
      password: randomBytes(12).toString('hex'),
      logger: createLogger('silent'),
      durability: 'throwaway',
    });
  } catch (err) {
    removeDir();
    throw err;
  }
  try {
    const admin = createKnex(pg.url, 1);
    await admin.raw(`create database ${TEMPLATE}`).finally(() => admin.destroy());
    const owner = createKnex(withDatabase(pg.url, TEMPLATE), 2);
    try {
      await migrateLatest(owner);
      await ensureAppRole(owner, appRolePassword({ secretKey }));
    } finally {
      await owner.destroy();
    }
  } catch (err) {
    await pg.stop().catch(() => undefined);
    removeDir();
    throw err;
  }
  return {
    superUrl: pg.url,
    template: TEMPLATE,
    async stop() {
      try {
        await pg.stop();
      } finally {
        removeDir();
      }
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Loaded by name at run time: research builds on core, so core cannot depend on it statically.
// The packaged test host (scripts/build-testing.mjs) hands its bundled copy in instead.
let testModules = async (): Promise<LoadedModule[]> => {
  const researchSpecifier = '@fieldbook/research';
  return [((await import(researchSpecifier)) as { default: LoadedModule }).default];
};

/** The modules every test Fieldbook runs besides core; for the packaged test host, which bundles them. */
export function setTestModules(modules: readonly LoadedModule[]): void {
  testModules = async () => [...modules];
}

export async function startTestFieldbook(options: TestFieldbookOptions): Promise<TestFieldbook> {
  const modules = await testModules();
  const mails: SentMail[] = [];
  // Test admins sign up with a password: a cheap hash (1 MiB, not production's 128 MiB) keeps a plugin's tests quick.
  const config = loadConfig(
    { LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', PASSWORD_HASH_COST: '10', ...options.env },
    { secretKey: options.secretKey, databaseUrl: options.databaseUrl },
  );
  const fieldbook = await createFieldbook({
    config,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    migrate: false,
    modules,
    plugins: options.plugins,
    pluginFolders: options.pluginFolders ?? [],
    discoverPlugins: false,
    onPluginRequest: options.onPluginRequest,
    mailer: {
      async send(message) {
        mails.push({ to: message.to, subject: message.subject, text: message.text });
      },
    },
    jobs: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
  });
  const { host } = fieldbook.services.extensions as ExtensionsServices;
  // A plugin under test that fails to load fails the test with Fieldbook's reason, rather than
  // starting a Fieldbook without it.
  const broken = host.catalog.broken;
  if (broken.length) {
    await fieldbook.close();
    throw new Error(broken.map((b) => `${b.name} (${b.source}) failed to load: ${b.problem}`).join('\n'));
  }
  const url = await fieldbook.listen(0, '127.0.0.1');
  const owner = fieldbook.db.owner;

  return {
    url,
    mails,
    async drainJobs(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // Jobs due soon (retries back off a few seconds) count; dead letters and daily schedules do not.
        const { rows } = await owner.raw<{ rows: Array<{ n: string }> }>(
          `select count(*) as n from ${JOB_SCHEMA}.job
            where (name like 'plugin.%' or name = ?) and name not like '%.dead'
              and state in ('created', 'retry', 'active') and start_after < now() + interval '30 seconds'`,
          [WEBHOOK_QUEUE],
        );
        if (Number(rows[0]!.n) === 0) return;
        if (Date.now() > deadline) throw new Error(`Jobs still waiting after ${timeoutMs} ms.`);
        await sleep(100);
      }
    },
    runAction: ({ pluginId, workspaceId, key, params, trigger }) =>
      host.runAction({ pluginId, workspaceId, key, params, trigger: trigger ?? { event: 'test', payload: {} } }),
    async storedEvents(pluginId) {
      const rows = await owner('plugin_webhook_events')
        .where({ plugin_id: pluginId })
        .orderBy('id')
        .select<Array<{ event_id: string; handled_at: Date | null }>>('event_id', 'handled_at');
      return rows.map((r) => ({ eventId: r.event_id, handled: r.handled_at !== null }));
    },
    close: () => fieldbook.close(),
  };
}

export const coreTesting: CoreTesting = { startTestFieldbook, createDatabaseFromTemplate, startTestDatabase };
