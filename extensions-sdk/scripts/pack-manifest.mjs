#!/usr/bin/env node
// The published form of the SDK. In the repository its exports point at the TypeScript sources, so
// `npm start`, `npm test` and the typecheck there need no build step and no custom resolution
// condition in each of their tools (tsx, vitest, tsc, Rsbuild, the sandbox's esbuild). Published,
// they point at JavaScript and declarations (publishConfig.exports).
//
//   publish        (npm's prepack) builds dist/ and swaps the published exports into package.json
//   restore        (npm's postpack) puts the repository's package.json back
//   stage <folder> writes the package as published into <folder>, touching nothing here, for
//                  `npm pack <folder>` while other processes read this package
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(dir, 'package.json');
const kept = join(dir, 'package.json.repo');

/** The package.json as published. */
function published(pkg) {
  const { exports, ...publishConfig } = pkg.publishConfig ?? {};
  if (!exports) throw new Error('package.json has no publishConfig.exports');
  const out = { ...pkg, exports, publishConfig };
  if (Object.keys(publishConfig).length === 0) delete out.publishConfig;
  delete out.devDependencies;
  return `${JSON.stringify(out, null, 2)}\n`;
}

const build = (outDir) =>
  execFileSync(process.execPath, [join(dir, 'scripts', 'build.mjs'), outDir], { stdio: 'inherit' });
const [mode, folder] = process.argv.slice(2);

if (mode === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else if (mode === 'stage') {
  if (!folder) throw new Error('Usage: pack-manifest.mjs stage <folder>');
  const out = resolve(folder);
  mkdirSync(join(out, 'scripts'), { recursive: true });
  build(join(out, 'dist'));
  copyFileSync(join(dir, 'scripts', 'create-plugin.mjs'), join(out, 'scripts', 'create-plugin.mjs'));
  writeFileSync(join(out, 'package.json'), published(JSON.parse(readFileSync(manifest, 'utf8'))));
} else if (mode === 'publish') {
  // A package.json left published by an interrupted pack is put back first, never kept as the source.
  if (existsSync(kept)) renameSync(kept, manifest);
  build(join(dir, 'dist'));
  const source = readFileSync(manifest, 'utf8');
  writeFileSync(kept, source);
  writeFileSync(manifest, published(JSON.parse(source)));
} else {
  throw new Error('Usage: pack-manifest.mjs publish | restore | stage <folder>');
}
