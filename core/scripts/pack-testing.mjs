#!/usr/bin/env node
// Core as published: the plugin test host. `publish` (npm's prepack) bundles it into
// dist/testing.js (core, the research and search modules and the migrations, with their npm
// packages left as dependencies) and writes the published package.json, which exports only
// `./testing`; `restore` (npm's postpack) puts the repository's package.json back; `stage <folder>`
// writes the published package into <folder> and touches nothing here, for `npm pack <folder>`
// while other processes read core. In the repository core stays TypeScript run directly, so
// nothing there needs this build.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const core = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(core, '..');
const manifest = join(core, 'package.json');
const kept = join(core, 'package.json.repo');
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));

const [mode, folder] = process.argv.slice(2);
if (mode === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
  process.exit(0);
}
if (mode !== 'publish' && !(mode === 'stage' && folder))
  throw new Error('Usage: pack-testing.mjs publish | restore | stage <folder>');
if (mode === 'publish' && existsSync(kept)) renameSync(kept, manifest);
const pkg = read(manifest);
const out = mode === 'stage' ? resolve(folder) : core;
const sdk = read(join(root, 'extensions-sdk', 'package.json'));

// Where each npm package the bundle leaves out is declared, with the range the repository uses.
const ranges = new Map();
for (const file of ['modules/search/package.json', 'modules/research/package.json', 'core/package.json']) {
  for (const [name, range] of Object.entries(read(join(root, file)).dependencies ?? {})) ranges.set(name, range);
}
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

const dist = join(out, 'dist');
rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: { testing: join(core, 'scripts', 'testing-entry.ts') },
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      // Fieldbook's own workspaces are bundled; the SDK and every npm package stay packages.
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (builtins.has(args.path)) return { external: true };
          const name = packageName(args.path);
          if (name.startsWith('@fieldbook/') && name !== '@fieldbook/extensions-sdk') return undefined;
          return { external: true };
        });
      },
    },
  ],
  // Some npm packages the bundle imports are CommonJS and use require for Node's own modules.
  banner: {
    js: "import { createRequire as __fieldbookRequire } from 'node:module'; const require = __fieldbookRequire(import.meta.url);",
  },
});
// Files the bundled code reads next to itself.
mkdirSync(dist, { recursive: true });
copyFileSync(join(core, 'src', 'identity', 'common-passwords', 'list.txt'), join(dist, 'list.txt'));
// The plugin sandbox's runtime is bundled with each plugin when it loads, from source next to the
// bundle (dist/inside, importing ../codec.ts): so plugin folders given to the test host run sandboxed.
const sandbox = join(core, 'src', 'extensions', 'sandbox');
cpSync(join(sandbox, 'inside'), join(dist, 'inside'), { recursive: true });
copyFileSync(join(sandbox, 'codec.ts'), join(dist, 'codec.ts'));
// What that runtime imports, resolved from dist/inside when a plugin is bundled.
const dependencies = {
  buffer: ranges.get('buffer'),
  'whatwg-url': ranges.get('whatwg-url'),
  '@noble/hashes': ranges.get('@noble/hashes'),
};
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) {
    if (!imported.external || builtins.has(imported.path)) continue;
    const name = packageName(imported.path);
    if (name === '@fieldbook/extensions-sdk') dependencies[name] = `^${sdk.version}`;
    else if (ranges.has(name)) dependencies[name] = ranges.get(name);
    else throw new Error(`The test host imports ${name}, which no Fieldbook package declares.`);
  }
}

if (mode === 'publish') writeFileSync(kept, readFileSync(manifest));
const published = {
  name: pkg.name,
  version: pkg.version,
  description:
    'Fieldbook as a test host for plugins: the server the SDK testing kit (createTestHost) starts, with its own embedded PostgreSQL',
  license: read(join(root, 'package.json')).license,
  type: 'module',
  engines: read(join(root, 'package.json')).engines,
  exports: { './testing': './dist/testing.js', './package.json': './package.json' },
  files: ['dist'],
  dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))),
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
console.log(
  `Bundled the test host into ${join(dist, 'testing.js')} with ${Object.keys(dependencies).length} npm dependencies`,
);
