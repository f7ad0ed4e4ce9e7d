/**
 * What the SDK's plugin testing kit starts: a real Fieldbook with the research module and only the
 * plugins under test, its mail kept in memory. Plugins never import this; the kit loads it.
 */
import { randomBytes } from 'node:crypto';
import type { CoreTesting, SentMail, TestFieldbook, TestFieldbookOptions } from '@fieldbook/extensions-sdk/testing';
import { loadConfig } from '../config.ts';
import { createKnex } from '../db/connections.ts';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startTestFieldbook(options: TestFieldbookOptions): Promise<TestFieldbook> {
  // Loaded by name at run time: research builds on core, so core cannot depend on it statically.
  const researchSpecifier = '@fieldbook/research';
  const research = ((await import(researchSpecifier)) as { default: LoadedModule }).default;
  const mails: SentMail[] = [];
  const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', ...options.env }, { secretKey: options.secretKey, databaseUrl: options.databaseUrl });
  const fieldbook = await createFieldbook({
    config,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    migrate: false,
    modules: [research],
    plugins: options.plugins,
    discoverPlugins: false,
    onPluginRequest: options.onPluginRequest,
    mailer: {
      async send(message) {
        mails.push({ to: message.to, subject: message.subject, text: message.text });
      },
    },
    jobs: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
  });
  const url = await fieldbook.listen(0, '127.0.0.1');
  const { host } = fieldbook.services.extensions as ExtensionsServices;
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
    runAction: ({ pluginId, workspaceId, key, params, trigger }) => host.runAction({ pluginId, workspaceId, key, params, trigger: trigger ?? { event: 'test', payload: {} } }),
    async storedEvents(pluginId) {
      const rows = await owner('plugin_webhook_events').where({ plugin_id: pluginId }).orderBy('id').select<Array<{ event_id: string; handled_at: Date | null }>>('event_id', 'handled_at');
      return rows.map((r) => ({ eventId: r.event_id, handled: r.handled_at !== null }));
    },
    close: () => fieldbook.close(),
  };
}

export const coreTesting: CoreTesting = { startTestFieldbook, createDatabaseFromTemplate };
