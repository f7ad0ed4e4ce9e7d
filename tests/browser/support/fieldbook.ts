import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../core/src/config.ts';
import { discoverModules } from '../../../core/src/kernel/discover.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { createFieldbook, type Fieldbook } from '../../../core/src/server.ts';
import { freePort } from '../../support/ports.ts';
import { TEST_PASSWORD_HASH_COST } from '../../support/password-cost.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { startFakeSlack, type FakeSlack } from '../../../plugins/slack/testing/fake-slack.ts';
import { startFakeZendesk, type FakeZendesk } from '../../../plugins/zendesk/testing/fake-zendesk.ts';
import type { PluginDefinition } from '../../../extensions-sdk/src/server/index.ts';
import { loadSandboxedPlugin, type PluginIsolate } from '../../../core/src/extensions/sandbox/index.ts';

/** A plugin whose installations each receive webhooks at their own URL (Linear-style signatures). */
const LINEAR_LIKE = join(
  import.meta.dirname,
  '..',
  '..',
  'integration',
  'extensions',
  'fixtures',
  'installation-webhooks',
  'linear-like',
);

/** Loads it sandboxed, as plugin packages run, unless FIELDBOOK_PLUGIN_SANDBOX=off asks for in-process. */
async function linearLike(): Promise<{ definition: PluginDefinition; isolate: PluginIsolate | null }> {
  if (process.env.FIELDBOOK_PLUGIN_SANDBOX === 'off')
    return {
      definition: ((await import(join(LINEAR_LIKE, 'server.ts'))) as { default: PluginDefinition }).default,
      isolate: null,
    };
  const loaded = await loadSandboxedPlugin({
    packageDir: LINEAR_LIKE,
    serverEntry: './server.ts',
    logger: createLogger('silent'),
  });
  return { definition: loaded.definition, isolate: loaded.isolate };
}
import { startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';

export const TEST_SECRET = 'browser-test-secret-key-that-is-long-enough-0123456789';

export interface BrowserEnvironment {
  /** The origin the browser opens; also PUBLIC_URL, so mailed links point here. */
  url: string;
  mail: TestMailServer;
  /** A local Slack the Slack plugin is configured against (its API and its consent page). */
  slack: FakeSlack;
  /** A local Zendesk the Zendesk plugin calls (email `agent@acme.example`, API token `zendesk-token`). */
  zendesk: FakeZendesk;
  /** A local OpenAI-compatible server the AI features call; each test scripts its answers. */
  ai: FakeOpenAI;
  fieldbook: Fieldbook;
  stop(): Promise<void>;
}

/**
 * A real Fieldbook for browser tests: a fresh embedded PostgreSQL in a temporary folder (created,
 * migrated), a real SMTP server that keeps what it receives, and the built web app.
 */
export async function startBrowserEnvironment(
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<BrowserEnvironment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldbook-browser-'));
  chmodSync(dataDir, 0o755); // the embedded server may run as the `postgres` user
  const mail = await startMailServer();
  const slack = await startFakeSlack();
  const zendesk = await startFakeZendesk({ email: 'agent@acme.example', apiToken: 'zendesk-token', maxPerPage: 2 });
  const ai = await startFakeOpenAI();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {
      PUBLIC_URL: url,
      FIELDBOOK_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      RELEASE: 'browser-test',
      // `FIELDBOOK_PLUGIN_SANDBOX=off npx playwright test ...` runs the plugins in-process, to tell the sandbox's part in a failure.
      FIELDBOOK_PLUGIN_SANDBOX: process.env.FIELDBOOK_PLUGIN_SANDBOX,
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'fake-client-secret',
      SLACK_SIGNING_SECRET: 'fake-signing-secret',
      SLACK_API_URL: slack.apiUrl,
      SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      ZENDESK_API_URL: zendesk.url,
      OPENAI_BASE_URL: ai.url,
      OPENAI_API_KEY: 'test-key',
      OPENAI_CHAT_MODEL: 'fake-chat',
      // Off unless a spec asks for them: they would otherwise change the notes other specs write.
      AI_STEPS: 'off',
      // Every test signs people up and in: at the production cost each hash is 128 MiB and about a second.
      PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
      ...extraEnv,
    },
    { secretKey: TEST_SECRET, smtpUrl: mail.url, embeddedPgThrowaway: true },
  );
  let fieldbook: Fieldbook;
  const extra = await linearLike();
  try {
    fieldbook = await createFieldbook({
      plugins: [extra.definition],
      config,
      logger: createLogger((process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent'),
      jobs: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
      // The domain modules in modules/, as `npm start` loads them.
      modules: await discoverModules(config.projectRoot),
    });
    await fieldbook.listen(port, '127.0.0.1');
  } catch (err) {
    await mail.close();
    await slack.close();
    extra.isolate?.dispose();
    await ai.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    mail,
    slack,
    zendesk,
    ai,
    fieldbook,
    async stop() {
      await fieldbook.close();
      await mail.close();
      await slack.close();
      await zendesk.close();
      extra.isolate?.dispose();
      await ai.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
