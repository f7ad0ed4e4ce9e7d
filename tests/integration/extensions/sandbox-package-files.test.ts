import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPluginCatalog } from '../../../core/src/extensions/catalog/catalog.ts';
import { loadSandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';

/**
 * A sandboxed plugin's bundle may hold only files of its own package (and the npm packages it
 * imports): whatever way its code names a file elsewhere on the server, the plugin is not built.
 */
const logger = createLogger('silent');
const KEY = 'server-secret-key-canary-4d1f';
const CONFIG = 'server-config-canary-77ab';

let work: string;
let dataDir: string;
let pluginsDir: string;

/** A plugin package whose manifest's name carries what its imports read, so a leak would show. */
function writePlugin(name: string, source: string, files: Record<string, string> = {}): string {
  const dir = join(pluginsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', fieldbook: { server: './server.ts' } }),
  );
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  writeFileSync(
    join(dir, 'server.ts'),
    `${source}\nexport default { manifest: { id: '${name}', name: String(typeof read === 'undefined' ? '${name}' : JSON.stringify(read)).slice(0, 900), version: '1.0.0', sdk: '^1', permissions: [] }, server: {}, settings: {}, config: {} };\n`,
  );
  return dir;
}

const load = (dir: string) => loadSandboxedPlugin({ packageDir: dir, serverEntry: './server.ts', logger });

/** Loads a plugin that must not be built; answers the reason, which must not carry what it tried to read. */
async function refused(dir: string): Promise<string> {
  const outcome = await load(dir).then(
    (loaded) => {
      loaded.isolate.dispose();
      return `loaded as ${String(loaded.definition.manifest.name)}`;
    },
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
  expect(outcome).not.toMatch(/^loaded as/);
  expect(outcome).not.toContain(KEY);
  expect(outcome).not.toContain(CONFIG);
  return outcome;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'fieldbook-package-files-'));
  dataDir = join(work, 'data');
  pluginsDir = join(work, 'plugins');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(pluginsDir, { recursive: true });
  writeFileSync(join(dataDir, 'secret.key'), KEY);
  writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ key: CONFIG }));
  writeFileSync(join(dataDir, 'notes.txt'), KEY);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('files a sandboxed plugin names outside its package', () => {
  it('refuses the process environment read with an import attribute', async () => {
    process.env.PACKAGE_FILES_CANARY = KEY;
    try {
      const dir = writePlugin('reads-environ', `import read from '/proc/self/environ' with { type: 'text' };`);
      expect(await refused(dir)).toMatch(
        /^Its server code cannot be bundled:\nserver.ts:1:17: .*absolute path \(\/proc\/self\/environ\)/,
      );
    } finally {
      delete process.env.PACKAGE_FILES_CANARY;
    }
  });

  it("refuses the data folder's secret key by absolute path, as text and as bytes", async () => {
    const text = writePlugin(
      'reads-key-text',
      `import read from ${JSON.stringify(join(dataDir, 'secret.key'))} with { type: 'text' };`,
    );
    expect(await refused(text)).toMatch(/absolute path/);
    const bytes = writePlugin(
      'reads-key-bytes',
      `import bytes from ${JSON.stringify(join(dataDir, 'secret.key'))} with { type: 'bytes' };\nconst read = new TextDecoder().decode(bytes);`,
    );
    expect(await refused(bytes)).toMatch(/absolute path/);
  });

  it('refuses a relative path out of its package, as text, bytes, JSON, require and dynamic import', async () => {
    const sources = {
      'relative-text': `import read from '../../data/secret.key' with { type: 'text' };`,
      'relative-bytes': `import read from '../../data/secret.key' with { type: 'bytes' };`,
      'relative-json': `import read from '../../data/config.json';`,
      'relative-json-attribute': `import read from '../../data/config.json' with { type: 'json' };`,
      'relative-txt': `import read from '../../data/notes.txt';`,
      'relative-require': `declare const require: (path: string) => unknown;\nconst read = require('../../data/config.json');`,
      'relative-dynamic': `const read = import('../../data/config.json');`,
      'relative-dynamic-glob': `const which = String(Date.now());\nconst read = import(\`../../data/\${which}\`);`,
    };
    for (const [name, source] of Object.entries(sources)) {
      const reason = await refused(writePlugin(name, source));
      expect(reason, name).toMatch(/outside the plugin's package/);
      expect(reason, name).toMatch(/data\/(secret\.key|config\.json|notes\.txt)/);
    }
  });

  it('refuses a file: URL', async () => {
    const dir = writePlugin(
      'reads-file-url',
      `import read from ${JSON.stringify(pathToFileURL(join(dataDir, 'secret.key')).href)} with { type: 'text' };`,
    );
    expect(await refused(dir)).toMatch(/file: URL/);
  });

  it('refuses a symlink inside its package that leads out of it, to a file or to a folder', async () => {
    const file = writePlugin('symlinked-file', `import read from './key.txt';`);
    symlinkSync(join(dataDir, 'notes.txt'), join(file, 'key.txt'));
    expect(await refused(file)).toMatch(/outside the plugin's package/);
    const folder = writePlugin('symlinked-folder', `import read from './data/config.json';`);
    symlinkSync(dataDir, join(folder, 'data'));
    expect(await refused(folder)).toMatch(/outside the plugin's package/);
    const environ = writePlugin('symlinked-environ', `import read from './environ.txt';`);
    symlinkSync('/proc/self/environ', join(environ, 'environ.txt'));
    expect(await refused(environ)).toMatch(/proc\/\d+\/environ.*outside the plugin's package/);
  });

  it('refuses a package name that leads out of the installed packages (tsconfig paths, "..")', async () => {
    const aliased = writePlugin('aliased', `import read from 'server-secrets/config.json';`, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { 'server-secrets/*': ['../../data/*'] } },
      }),
    });
    expect(await refused(aliased)).toMatch(/outside the plugin's package/);
    const dotted = writePlugin('dotted', `import read from 'zod/../../../../data/config.json';`);
    expect(await refused(dotted)).toMatch(/outside|\.\./);
  });

  it('refuses a server entry outside its package', async () => {
    const dir = writePlugin('entry-outside', '');
    const outcome = await loadSandboxedPlugin({ packageDir: dir, serverEntry: '../../data/config.json', logger }).then(
      () => 'loaded',
      (err: unknown) => (err as Error).message,
    );
    expect(outcome).toMatch(/outside the plugin's package/);
  });

  it('still bundles its own files, as text, bytes and JSON, and the npm packages it imports', async () => {
    const dir = writePlugin(
      'own-files',
      [
        `import words from './words.json';`,
        `import note from './note.txt';`,
        `import raw from './raw.bin' with { type: 'bytes' };`,
        `import shout from './shout.md' with { type: 'text' };`,
        `import { version } from 'tiny-dep/data.json';`,
        `const read = { words, note, raw: raw.length, shout, version };`,
      ].join('\n'),
      {
        'words.json': JSON.stringify(['alpha']),
        'note.txt': 'a note',
        'raw.bin': 'xyz',
        'shout.md': '# hi',
        'node_modules/tiny-dep/package.json': JSON.stringify({ name: 'tiny-dep', version: '2.0.0' }),
        'node_modules/tiny-dep/data.json': JSON.stringify({ version: '2.0.0' }),
      },
    );
    const loaded = await load(dir);
    loaded.isolate.dispose();
    expect(JSON.parse(String(loaded.definition.manifest.name))).toEqual({
      words: ['alpha'],
      note: 'a note',
      raw: 3,
      shout: '# hi',
      version: '2.0.0',
    });
  });

  it('is listed as failed with the reason, and the other plugins load', async () => {
    const dir = join(work, 'catalog');
    mkdirSync(dir);
    const before = pluginsDir;
    pluginsDir = dir;
    try {
      writePlugin('leaky', `import read from '../../data/secret.key' with { type: 'text' };`);
      writePlugin('tidy', '');
    } finally {
      pluginsDir = before;
    }
    const catalog = await loadPluginCatalog({
      dir,
      packages: [],
      env: {},
      projectRoot: work,
      logger,
      isolation: { sandbox: true, trusted: [] },
    });
    try {
      expect(catalog.plugins.map((p) => p.id)).toEqual(['tidy']);
      expect(catalog.broken.map((b) => b.name)).toEqual(['leaky']);
      expect(catalog.broken[0]!.problem).toMatch(/data\/secret\.key is outside the plugin's package/);
      expect(catalog.broken[0]!.problem).not.toContain(KEY);
    } finally {
      catalog.close();
    }
  });
});
