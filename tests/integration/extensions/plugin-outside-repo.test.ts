import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPluginCatalog } from '../../../core/src/extensions/catalog/catalog.ts';
import { loadConfig } from '../../../core/src/config.ts';
import type { ExtensionsServices } from '../../../core/src/extensions/module.ts';
import { createLogger } from '../../../core/src/logger.ts';
import research from '../../../modules/research/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { createProject, ok, type Gql } from '../research/content-support.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');

/**
 * Fieldbook's own test run sets FIELDBOOK_TEST_* (its shared PostgreSQL) and vitest's variables;
 * a third-party developer has none of them, so the plugin's own `npm test` runs without.
 */
function outsideEnv(): NodeJS.ProcessEnv {
  // npm's cache stays the one this process would look in, where Fieldbook finds installed tarballs.
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        (!/^(FIELDBOOK_|VITEST|TEST_|npm_)/.test(k) && k !== 'NODE_ENV' && k !== 'NODE_OPTIONS') ||
        k === 'npm_config_cache',
    ),
  );
}

/** How long each step took, printed at the end: the test's time is mostly npm's and PostgreSQL's. */
const steps: string[] = [];

async function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const started = performance.now();
  try {
    const { stdout, stderr } = await run(cmd, args, {
      cwd,
      env: { ...outsideEnv(), ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    steps.push(
      `${((performance.now() - started) / 1000).toFixed(1)} s  ${cmd === process.execPath ? 'node' : cmd} ${args.filter((a) => !a.startsWith('/')).join(' ')}`,
    );
    return `${stdout}\n${stderr}`;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

/**
 * What the test adds to the scaffolded plugin before packing it (the scaffold carries no such code):
 * an action that tries every way out of the sandbox and reports what each attempt met.
 */
const ESCAPE = `import { z } from 'zod';

const outcome = async (attempt: () => unknown): Promise<string> => {
  try {
    return \`reached: \${String(await attempt()).slice(0, 60)}\`;
  } catch (err) {
    return \`refused: \${err instanceof Error ? err.message : String(err)}\`;
  }
};

/** Tries to leave the sandbox: loopback through the global fetch and its context, files through node:fs. */
export const tryEscape = {
  key: 'tryEscape',
  title: 'Try to escape',
  parameters: z.object({ url: z.string(), file: z.string(), module: z.string() }),
  async execute(ctx: { http: { fetch(url: string): Promise<{ status: number }> } }, params: { url: string; file: string; module: string }) {
    const scope = globalThis as unknown as Record<string, unknown>;
    type Fs = { readFileSync(path: string, encoding: 'utf8'): string };
    const report = {
      globalFetch: await outcome(async () => (await (scope.fetch as (url: string) => Promise<{ status: number }>)(params.url)).status),
      contextFetch: await outcome(async () => (await ctx.http.fetch(params.url)).status),
      importFs: await outcome(async () => ((await import(params.module)) as Fs).readFileSync(params.file, 'utf8')),
      requireFs: await outcome(() => (scope.require as (id: string) => Fs)(params.module).readFileSync(params.file, 'utf8')),
      processBinding: await outcome(() => (scope.process as { binding(name: string): unknown }).binding('fs')),
    };
    return { summary: JSON.stringify(report) };
  },
};
`;

/** Adds the escape action to the scaffolded plugin's definition and package. */
function addEscapeAction(plugin: string): void {
  writeFileSync(join(plugin, 'server', 'escape.ts'), ESCAPE);
  const index = join(plugin, 'server', 'index.ts');
  const source = readFileSync(index, 'utf8');
  const changed = source
    .replace(/^(import .*'@fieldbook\/extensions-sdk\/server';)$/m, "$1\nimport { tryEscape } from './escape.ts';")
    .replace('  server: {\n', '  server: {\n    actions: [tryEscape],\n');
  expect(changed.match(/tryEscape/g)).toHaveLength(2);
  writeFileSync(index, changed);
  const pkgFile = join(plugin, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { files: string[] };
  writeFileSync(pkgFile, JSON.stringify({ ...pkg, files: [...pkg.files, 'server/escape.ts'] }, null, 2));
}

const PLUGIN = 'feedback-inbox';
const PACKAGE = `fieldbook-plugin-${PLUGIN}`;
const sign = (body: string, secret: string) => ({
  'content-type': 'application/json',
  [`x-${PLUGIN}-signature`]: createHmac('sha256', secret).update(body).digest('hex'),
});

interface Workspace {
  id: string;
  gql: Gql;
  projectId: string;
  secret: string;
  path: string;
}

/** Polls until `check` passes: the delivery's note is made in a job after the 200. */
async function eventually(check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Runs the installed package in a real Fieldbook, named in FIELDBOOK_PLUGINS and sandboxed (the
 * default): two workspaces, each with its own URL and secret; signed and forged deliveries; and
 * the plugin's own attempts to reach loopback and read files.
 */
async function runInFieldbook(fieldbook: string, work: string): Promise<void> {
  let server: TestServer | undefined;
  let mail: TestMailServer | undefined;
  let loopback: Server | undefined;
  try {
    // The plugin settings Fieldbook reads from its environment, as an operator sets them.
    const { plugins } = loadConfig(
      {
        FIELDBOOK_PLUGINS: PACKAGE,
        FIELDBOOK_PLUGINS_DIR: join(work, 'no-bundled-plugins'),
        npm_config_cache: process.env.npm_config_cache,
      },
      { secretKey: 'read-from-the-data-folder-elsewhere-not-here' },
    );
    expect(plugins.isolation).toEqual({ sandbox: true, trusted: [] });
    mail = await startMailServer();
    server = await startTestServer(
      { smtpUrl: mail.url, plugins, projectRoot: fieldbook, dataDir: join(work, 'data') },
      { modules: [research] },
    );
    const srv = server;
    const pluginRows = async () =>
      Number(
        (
          await srv.fieldbook.db
            .owner('plugin_webhook_events')
            .where({ plugin_id: PLUGIN })
            .count<Array<{ count: string }>>('* as count')
        )[0]!.count,
      );

    const workspace = async (secret: string): Promise<Workspace> => {
      const ws = await createWorkspaceWithAdmin(srv, mail!);
      const gql = gqlAs(srv, ws.admin.accessToken, ws.id);
      const projectId = (await createProject(gql, 'Inbox')).id;
      ok(
        await gql(
          'mutation($s: [PluginSettingInput!]) { installPlugin(pluginId: "feedback-inbox", settings: $s) { id } }',
          {
            s: [
              { key: 'signingSecret', text: secret },
              { key: 'projectId', text: projectId },
            ],
          },
        ),
      );
      ok(
        await gql(
          'mutation($pr: ID!) { setProjectPluginEnabled(projectId: $pr, pluginId: "feedback-inbox", enabled: true) { enabled } }',
          { pr: projectId },
        ),
      );
      const answer = ok(
        await gql<{ plugins: Array<{ id: string; installation: { webhookUrl: string | null } | null }> }>(
          '{ plugins { id installation { webhookUrl } } }',
        ),
      );
      const url = answer.plugins.find((p) => p.id === PLUGIN)?.installation?.webhookUrl;
      expect(url).toMatch(new RegExp(`^http://localhost:3000/hooks/${PLUGIN}/[A-Za-z0-9_-]{43}$`));
      return { id: ws.id, gql, projectId, secret, path: new URL(url!).pathname };
    };
    const first = await workspace('first-workspace-secret');
    const second = await workspace('second-workspace-secret');
    expect(first.path).not.toBe(second.path);

    const deliver = (to: Workspace, body: string, headers: Record<string, string>) =>
      fetch(`${srv.url}${to.path}`, { method: 'POST', headers, body });
    const titles = async (ws: Workspace) =>
      ok(
        await ws.gql<{ notes: { nodes: Array<{ title: string }> } }>(
          'query($p: ID!) { notes(projectId: $p, first: 50) { nodes { title } } }',
          { p: ws.projectId },
        ),
      ).notes.nodes.map((n) => n.title);

    // Correctly signed: a note in that workspace only, once however often it arrives.
    const body = JSON.stringify({ id: 'm-1', title: 'Checkout feedback', text: 'The coupon field is hard to find.' });
    expect((await deliver(first, body, sign(body, first.secret))).status).toBe(200);
    expect((await deliver(first, body, sign(body, first.secret))).status).toBe(200);
    const secondBody = JSON.stringify({
      id: 'm-1',
      title: 'Onboarding feedback',
      text: 'The invite mail went to spam.',
    });
    expect((await deliver(second, secondBody, sign(secondBody, second.secret))).status).toBe(200);
    await eventually(async () => expect(await titles(first)).toEqual(['Checkout feedback']));
    await eventually(async () => expect(await titles(second)).toEqual(['Onboarding feedback']));
    expect(await pluginRows()).toBe(2);

    // Forged: unsigned, signed with a guess, or with the other workspace's secret. 401, nothing stored.
    const forged = JSON.stringify({ id: 'm-2', title: 'Forged feedback', text: '…' });
    for (const headers of [
      { 'content-type': 'application/json' },
      sign(forged, 'a-guessed-secret'),
      sign(forged, second.secret),
    ]) {
      const res = await deliver(first, forged, headers);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain('Forged feedback');
    }
    expect(await pluginRows()).toBe(2);
    expect(await titles(first)).toEqual(['Checkout feedback']);

    // The plugin's own code, sandboxed: no loopback, no files, whatever it tries.
    let reached = 0;
    loopback = createServer((_req, res) => {
      reached++;
      res.end('internal');
    });
    await new Promise<void>((r) => loopback!.listen(0, '127.0.0.1', r));
    const { host } = srv.fieldbook.services.extensions as ExtensionsServices;
    const answer = await host.runAction({
      pluginId: PLUGIN,
      workspaceId: first.id,
      key: 'tryEscape',
      params: {
        url: `http://127.0.0.1:${(loopback.address() as { port: number }).port}/`,
        file: join(fieldbook, 'package.json'),
        module: 'node:fs',
      },
      trigger: { event: 'test', payload: {} },
    });
    const report = JSON.parse(answer?.summary ?? '{}') as Record<string, string>;
    expect(Object.keys(report)).toEqual(['globalFetch', 'contextFetch', 'importFs', 'requireFs', 'processBinding']);
    for (const [attempt, result] of Object.entries(report)) expect(result, attempt).toMatch(/^refused: /);
    expect(report.globalFetch).toMatch(/fetch is not a function/);
    expect(report.contextFetch).toBe('refused: 127.0.0.1 is an internal address and can never be reached.');
    expect(report.requireFs).toMatch(/require is not a function/);
    expect(report.processBinding).toMatch(/Cannot read properties of undefined/);
    expect(reached).toBe(0);
  } finally {
    await server?.close();
    await mail?.close();
    await new Promise((r) => (loopback ? loopback.close(r) : r(undefined)));
  }
}

describe('a plugin in a repository of its own', () => {
  const work = mkdtempSync(join(tmpdir(), 'fieldbook-plugin-repo-'));
  // Run as root, the embedded PostgreSQL runs as the `postgres` user, who must reach its binaries here.
  chmodSync(work, 0o755);
  afterAll(() => {
    console.log(steps.join('\n'));
    rmSync(work, { recursive: true, force: true });
  });

  it('is scaffolded from the packed SDK, passes its own npm test on an embedded PostgreSQL, typechecks, builds its web part, and runs sandboxed in a Fieldbook that installed it by name: each workspace’s own URL and secret, forgeries refused with nothing stored, no way out of its sandbox', {
    timeout: 300_000,
  }, async () => {
    // The packages as published, made without touching the repository's package.json files.
    await Promise.all([
      sh(
        process.execPath,
        [join(root, 'extensions-sdk', 'scripts', 'pack-manifest.mjs'), 'stage', join(work, 'sdk')],
        root,
      ),
      sh(process.execPath, [join(root, 'core', 'scripts', 'pack-testing.mjs'), 'stage', join(work, 'core')], root),
    ]);
    await Promise.all([
      sh('npm', ['pack', join(work, 'sdk'), '--pack-destination', work, '--ignore-scripts', '--silent'], work),
      sh('npm', ['pack', join(work, 'core'), '--pack-destination', work, '--ignore-scripts', '--silent'], work),
    ]);
    const tarballs = readdirSync(work).filter((f) => f.endsWith('.tgz'));
    expect(tarballs.sort()).toEqual(['fieldbook-core-0.1.0.tgz', 'fieldbook-extensions-sdk-1.0.0.tgz']);
    const published = JSON.parse(readFileSync(join(work, 'sdk', 'package.json'), 'utf8')) as {
      version: string;
      exports: Record<string, { types: string; default: string }>;
    };
    expect(published.exports['./server']).toEqual({
      types: './dist/server/index.d.ts',
      default: './dist/server/index.js',
    });

    // The scaffold as the SDK's bin runs it: outside any Fieldbook repository.
    const plugin = join(work, 'feedback-inbox');
    await sh(process.execPath, [join(work, 'sdk', 'scripts', 'create-plugin.mjs'), 'feedback-inbox'], work);
    const pkg = JSON.parse(readFileSync(join(plugin, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.dependencies['@fieldbook/extensions-sdk']).toBe(`^${published.version}`);
    expect(pkg.devDependencies['@fieldbook/core']).toBeDefined();
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['test', 'build']));

    // npm's registry (through its cache) for everything but Fieldbook's two packages, which are
    // not saved: the plugin keeps depending on the SDK by version, as it would once published.
    const sdkTarball = join(work, 'fieldbook-extensions-sdk-1.0.0.tgz');
    await sh(
      'npm',
      [
        'install',
        '--no-save',
        sdkTarball,
        join(work, 'fieldbook-core-0.1.0.tgz'),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      plugin,
    );
    // A temporary folder of its own, so what its embedded PostgreSQL leaves behind is seen here alone.
    const temp = join(work, 'tmp');
    mkdirSync(temp);
    const tested = await sh('npm', ['test'], plugin, { TMPDIR: temp });
    // eslint-disable-next-line no-control-regex -- vitest colours its summary
    expect(tested.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/);
    // Its embedded PostgreSQL was stopped and its folder removed.
    expect(readdirSync(temp).filter((n) => n.startsWith('fieldbook-plugin-test-'))).toEqual([]);

    // The escape attempts the sandbox must refuse, typechecked with the rest.
    addEscapeAction(plugin);
    // The SDK's declarations as a TypeScript user meets them, beside the web part's build.
    const typecheck = sh('npm', ['run', 'typecheck'], plugin);
    typecheck.catch(() => undefined); // awaited below; a failure is reported there, not as unhandled
    await sh('npm', ['run', 'build'], plugin);
    const manifest = JSON.parse(readFileSync(join(plugin, 'web', 'dist', 'mf-manifest.json'), 'utf8')) as {
      name: string;
      exposes: Array<{ path: string }>;
    };
    expect(manifest.name).toBe('fieldbook_plugin_feedback_inbox');
    expect(manifest.exposes.map((e) => e.path)).toEqual(['./extension']);
    expect(existsSync(join(plugin, 'web', 'dist', 'mf-manifest.json.br'))).toBe(true);

    // Installed by npm name in a Fieldbook's folder, and loaded as Fieldbook loads it: checked
    // against the integrity package-lock.json records, bundled into a sandbox, its web part served.
    await sh('npm', ['pack', '--pack-destination', work, '--silent'], plugin);
    const fieldbook = join(work, 'fieldbook');
    mkdirSync(fieldbook);
    writeFileSync(join(fieldbook, 'package.json'), JSON.stringify({ name: 'a-fieldbook', private: true }));
    await sh(
      'npm',
      [
        'install',
        sdkTarball,
        join(work, 'fieldbook-plugin-feedback-inbox-0.1.0.tgz'),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      fieldbook,
    );
    const lock = JSON.parse(readFileSync(join(fieldbook, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { integrity: string }>;
    };
    const catalog = await loadPluginCatalog({
      dir: null,
      packages: ['fieldbook-plugin-feedback-inbox'],
      env: { FEEDBACK_INBOX_SIGNING_SECRET: 'a-secret' },
      projectRoot: fieldbook,
      logger: createLogger('silent'),
      isolation: { sandbox: true, trusted: [] },
    });
    try {
      expect(catalog.broken).toEqual([]);
      const [loaded] = catalog.plugins;
      expect([loaded?.id, loaded?.state, loaded?.isolation]).toEqual(['feedback-inbox', 'ready', 'sandbox']);
      const installed = join(fieldbook, 'node_modules', 'fieldbook-plugin-feedback-inbox');
      expect(loaded!.webDir).toBe(join(installed, 'web', 'dist'));
      expect(loaded!.origin).toEqual({
        kind: 'npm',
        packageName: 'fieldbook-plugin-feedback-inbox',
        packageVersion: '0.1.0',
        path: installed,
        integrity: lock.packages['node_modules/fieldbook-plugin-feedback-inbox']!.integrity,
      });
    } finally {
      catalog.close();
    }
    await typecheck;
    await runInFieldbook(fieldbook, work);
  });
});
