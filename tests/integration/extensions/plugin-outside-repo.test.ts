import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPluginCatalog } from '../../../core/src/extensions/catalog/catalog.ts';
import { createLogger } from '../../../core/src/logger.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');

/**
 * Fieldbook's own test run sets FIELDBOOK_TEST_* (its shared PostgreSQL) and vitest's variables;
 * a third-party developer has none of them, so the plugin's own `npm test` runs without.
 */
function outsideEnv(): NodeJS.ProcessEnv {
  // npm's cache stays the one this process would look in, where Fieldbook finds installed tarballs.
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(FIELDBOOK_|VITEST|TEST_|npm_)/.test(k) && k !== 'NODE_ENV' && k !== 'NODE_OPTIONS' || k === 'npm_config_cache'));
}

/** How long each step took, printed at the end: the test's time is mostly npm's and PostgreSQL's. */
const steps: string[] = [];

async function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const started = performance.now();
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd, env: { ...outsideEnv(), ...env }, maxBuffer: 64 * 1024 * 1024 });
    steps.push(`${((performance.now() - started) / 1000).toFixed(1)} s  ${cmd === process.execPath ? 'node' : cmd} ${args.filter((a) => !a.startsWith('/')).join(' ')}`);
    return `${stdout}\n${stderr}`;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
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

  it('is scaffolded from the packed SDK, passes its own npm test on an embedded PostgreSQL, typechecks, builds its web part, and loads in a Fieldbook that installed it by name', { timeout: 300_000 }, async () => {
    // The packages as published, made without touching the repository's package.json files.
    await Promise.all([
      sh(process.execPath, [join(root, 'extensions-sdk', 'scripts', 'pack-manifest.mjs'), 'stage', join(work, 'sdk')], root),
      sh(process.execPath, [join(root, 'core', 'scripts', 'pack-testing.mjs'), 'stage', join(work, 'core')], root),
    ]);
    await Promise.all([sh('npm', ['pack', join(work, 'sdk'), '--pack-destination', work, '--ignore-scripts', '--silent'], work), sh('npm', ['pack', join(work, 'core'), '--pack-destination', work, '--ignore-scripts', '--silent'], work)]);
    const tarballs = readdirSync(work).filter((f) => f.endsWith('.tgz'));
    expect(tarballs.sort()).toEqual(['fieldbook-core-0.1.0.tgz', 'fieldbook-extensions-sdk-1.0.0.tgz']);
    const published = JSON.parse(readFileSync(join(work, 'sdk', 'package.json'), 'utf8')) as { version: string; exports: Record<string, { types: string; default: string }> };
    expect(published.exports['./server']).toEqual({ types: './dist/server/index.d.ts', default: './dist/server/index.js' });

    // The scaffold as the SDK's bin runs it: outside any Fieldbook repository.
    const plugin = join(work, 'feedback-inbox');
    await sh(process.execPath, [join(work, 'sdk', 'scripts', 'create-plugin.mjs'), 'feedback-inbox'], work);
    const pkg = JSON.parse(readFileSync(join(plugin, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.dependencies['@fieldbook/extensions-sdk']).toBe(`^${published.version}`);
    expect(pkg.devDependencies['@fieldbook/core']).toBeDefined();
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['test', 'build']));

    // npm's registry (through its cache) for everything but Fieldbook's two packages, which are
    // not saved: the plugin keeps depending on the SDK by version, as it would once published.
    const sdkTarball = join(work, 'fieldbook-extensions-sdk-1.0.0.tgz');
    await sh('npm', ['install', '--no-save', sdkTarball, join(work, 'fieldbook-core-0.1.0.tgz'), '--prefer-offline', '--no-audit', '--no-fund'], plugin);
    // A temporary folder of its own, so what its embedded PostgreSQL leaves behind is seen here alone.
    const temp = join(work, 'tmp');
    mkdirSync(temp);
    const tested = await sh('npm', ['test'], plugin, { TMPDIR: temp });
    // eslint-disable-next-line no-control-regex -- vitest colours its summary
    expect(tested.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/);
    // Its embedded PostgreSQL was stopped and its folder removed.
    expect(readdirSync(temp).filter((n) => n.startsWith('fieldbook-plugin-test-'))).toEqual([]);

    // The SDK's declarations as a TypeScript user meets them, beside the web part's build.
    const typecheck = sh('npm', ['run', 'typecheck'], plugin);
    typecheck.catch(() => undefined); // awaited below; a failure is reported there, not as unhandled
    await sh('npm', ['run', 'build'], plugin);
    const manifest = JSON.parse(readFileSync(join(plugin, 'web', 'dist', 'mf-manifest.json'), 'utf8')) as { name: string; exposes: Array<{ path: string }> };
    expect(manifest.name).toBe('fieldbook_plugin_feedback_inbox');
    expect(manifest.exposes.map((e) => e.path)).toEqual(['./extension']);
    expect(existsSync(join(plugin, 'web', 'dist', 'mf-manifest.json.br'))).toBe(true);

    // Installed by npm name in a Fieldbook's folder, and loaded as Fieldbook loads it: checked
    // against the integrity package-lock.json records, bundled into a sandbox, its web part served.
    await sh('npm', ['pack', '--pack-destination', work, '--silent'], plugin);
    const fieldbook = join(work, 'fieldbook');
    mkdirSync(fieldbook);
    writeFileSync(join(fieldbook, 'package.json'), JSON.stringify({ name: 'a-fieldbook', private: true }));
    await sh('npm', ['install', sdkTarball, join(work, 'fieldbook-plugin-feedback-inbox-0.1.0.tgz'), '--prefer-offline', '--no-audit', '--no-fund'], fieldbook);
    const lock = JSON.parse(readFileSync(join(fieldbook, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity: string }> };
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
      expect(loaded!.origin).toEqual({ kind: 'npm', packageName: 'fieldbook-plugin-feedback-inbox', packageVersion: '0.1.0', path: installed, integrity: lock.packages['node_modules/fieldbook-plugin-feedback-inbox']!.integrity });
    } finally {
      catalog.close();
    }
    await typecheck;
  });
});
