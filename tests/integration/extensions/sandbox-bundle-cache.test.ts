import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/src/config.ts';
import { loadPluginCatalog } from '../../../core/src/extensions/catalog/catalog.ts';
import type { ExtensionsServices } from '../../../core/src/extensions/module.ts';
import { keepBundle } from '../../../core/src/extensions/sandbox/bundle-cache.ts';
import { loadSandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { startTestServer } from '../../support/server.ts';

const logger = createLogger('silent');
const projectRoot = join(import.meta.dirname, '..', '..', '..');

let work: string;
let pluginsDir: string;
let pluginDir: string;
let bundles: string;

/** A plugin whose name comes from a second file, so a change beside the entry is seen. */
function writePlugin(name: string): void {
  writeFileSync(join(pluginDir, 'name.ts'), `export const NAME = ${JSON.stringify(name)};\n`);
}

function installGreeting(version: string): void {
  writeFileSync(
    join(pluginDir, 'node_modules', 'greeting', 'package.json'),
    JSON.stringify({ name: 'greeting', version, type: 'module', main: 'index.js' }),
  );
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'fieldbook-bundles-'));
  pluginsDir = join(work, 'plugins');
  pluginDir = join(pluginsDir, 'cached-words');
  bundles = join(work, 'data', 'plugin-bundles');
  mkdirSync(pluginDir, { recursive: true });
  // The SDK and zod come from the project, as for a bundled plugin; `greeting` is the plugin's own dependency.
  mkdirSync(join(pluginDir, 'node_modules', 'greeting'), { recursive: true });
  for (const pkg of ['@fieldbook', 'zod'])
    symlinkSync(join(projectRoot, 'node_modules', pkg), join(pluginDir, 'node_modules', pkg));
  installGreeting('1.0.0');
  writeFileSync(join(pluginDir, 'node_modules', 'greeting', 'index.js'), `export const GREETING = 'Hello';\n`);
  writeFileSync(
    join(pluginDir, 'package.json'),
    JSON.stringify({ name: 'cached-words', private: true, type: 'module', fieldbook: { server: './server.ts' } }),
  );
  writeFileSync(
    join(pluginDir, 'server.ts'),
    [
      "import { definePlugin } from '@fieldbook/extensions-sdk/server';",
      "import { z } from 'zod';",
      "import { NAME } from './name.ts';",
      "import { GREETING } from 'greeting';",
      "export default definePlugin({ id: 'cached-words', name: NAME, version: '1.0.0', sdk: '^1', permissions: [],",
      "  server: { actions: [{ key: 'greet', title: 'Greet', parameters: z.object({}), execute: async () => ({ summary: `${GREETING} from ${NAME}` }) }] } });",
    ].join('\n'),
  );
  writePlugin('Cached words');
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

const load = () =>
  loadSandboxedPlugin({ packageDir: pluginDir, serverEntry: './server.ts', logger, bundleDir: bundles });

async function nameAndReuse(): Promise<[unknown, boolean]> {
  const plugin = await load();
  plugin.isolate.dispose();
  return [plugin.definition.manifest.name, plugin.bundle.reused];
}

describe('plugin bundles kept in the data folder', () => {
  it('bundles a plugin once, reuses the bundle while its files are unchanged, and bundles again when one changes', async () => {
    expect(await nameAndReuse()).toEqual(['Cached words', false]);
    expect(readdirSync(bundles).length).toBeGreaterThan(0);
    expect(await nameAndReuse()).toEqual(['Cached words', true]);

    writePlugin('Changed words');
    expect(await nameAndReuse()).toEqual(['Changed words', false]);
    expect(await nameAndReuse()).toEqual(['Changed words', true]);
  });

  it('bundles again when a dependency is installed at another version', async () => {
    expect(await nameAndReuse()).toEqual(['Cached words', false]);
    installGreeting('1.0.1');
    expect(await nameAndReuse()).toEqual(['Cached words', false]);
    expect(await nameAndReuse()).toEqual(['Cached words', true]);
  });

  it('bundles again when a kept bundle is damaged, rather than running it', async () => {
    await nameAndReuse();
    for (const file of readdirSync(bundles).filter((f) => f.endsWith('.js')))
      writeFileSync(join(bundles, file), 'throw new Error("half written")');
    expect(await nameAndReuse()).toEqual(['Cached words', false]);
    expect(await nameAndReuse()).toEqual(['Cached words', true]);
  });

  it('the catalog keeps bundles in the folder it is given, and its close frees every isolate for good', async () => {
    const catalog = await loadPluginCatalog({
      dir: pluginsDir,
      packages: [],
      env: {},
      projectRoot,
      logger,
      isolation: { sandbox: true, trusted: [], bundleDir: bundles },
    });
    expect(catalog.plugins.map((p) => [p.id, p.isolation])).toEqual([['cached-words', 'sandbox']]);
    expect(readdirSync(bundles).length).toBeGreaterThan(0);
    // The action's parameters are checked by its own zod schema, inside its isolate.
    const check = () => catalog.plugins[0]!.definition.server.actions![0]!.parameters.safeParse({});
    expect(check()).toMatchObject({ success: true });

    catalog.close();
    // A call arriving after the server closed finds no isolate, and does not start a new one.
    expect(check).toThrow('The plugin cached-words has been closed with the server.');
  });

  it("Fieldbook keeps bundles in its data folder, and closing it frees its plugins' sandboxes", async () => {
    const { plugins } = loadConfig(
      { FIELDBOOK_PLUGINS_DIR: pluginsDir },
      { secretKey: 'a-secret-key-of-at-least-thirty-two-characters', databaseUrl: 'postgres://unused' },
    );
    const fieldbook = await startTestServer({ dataDir: join(work, 'data'), plugins });
    expect(readdirSync(bundles).length).toBeGreaterThan(0);
    const { host } = fieldbook.fieldbook.services.extensions as ExtensionsServices;
    const check = () => host.catalog.get('cached-words')!.definition.server.actions![0]!.parameters.safeParse({});
    expect(check()).toMatchObject({ success: true });
    await fieldbook.close();
    expect(check).toThrow('The plugin cached-words has been closed with the server.');
  });
});

describe('a kept bundle that holds a file from outside its package', () => {
  it('is never used: the plugin is bundled again, and fails with the reason', async () => {
    // A bundle as a release that let plugins read any file kept it: made of the plugin's code and a server file.
    writeFileSync(join(pluginDir, 'name.txt'), 'harmless words');
    writeFileSync(
      join(pluginDir, 'name.ts'),
      "import words from './name.txt' with { type: 'text' };\nexport const NAME = words;\n",
    );
    expect(await nameAndReuse()).toEqual(['harmless words', false]);
    const manifest = readdirSync(bundles).find((f) => f.endsWith('.json'))!;
    const kept = JSON.parse(readFileSync(join(bundles, manifest), 'utf8')) as { files: Record<string, string> };
    const code = readFileSync(join(bundles, manifest.replace(/\.json$/, '.js')), 'utf8');

    const secret = join(work, 'data', 'secret.key');
    writeFileSync(secret, 'kept-secret-canary');
    writeFileSync(
      join(pluginDir, 'name.ts'),
      "import words from '../../data/secret.key' with { type: 'text' };\nexport const NAME = words;\n",
    );
    const inputs = [...Object.keys(kept.files).filter((f) => !f.endsWith('name.txt')), secret];
    keepBundle(bundles, pluginDir, './server.ts', code.replace('harmless words', 'kept-secret-canary'), inputs);

    const outcome = await load().then(
      (plugin) => {
        plugin.isolate.dispose();
        return `reused as ${String(plugin.definition.manifest.name)}`;
      },
      (err: unknown) => (err as Error).message,
    );
    expect(outcome).toMatch(/data\/secret\.key is outside the plugin's package/);
    expect(outcome).not.toContain('kept-secret-canary');
  });
});
