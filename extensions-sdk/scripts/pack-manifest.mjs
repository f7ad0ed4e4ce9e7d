#!/usr/bin/env node
// Run by npm around `npm pack` / `npm publish`: `publish` builds dist/ and swaps the published
// exports (publishConfig.exports: JavaScript and declarations) into package.json; `restore` puts
// the repository's package.json back. In the repository the exports point at the TypeScript
// sources, so `npm start`, `npm test` and the typecheck there need no build step and no custom
// resolution condition in each of their tools (tsx, vitest, tsc, Rsbuild, the sandbox's esbuild).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(dir, 'package.json');
const kept = join(dir, 'package.json.repo');

if (process.argv[2] === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  // A package.json left published by an interrupted pack is put back first, never kept as the source.
  if (existsSync(kept)) renameSync(kept, manifest);
  execFileSync(process.execPath, [join(dir, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  writeFileSync(kept, readFileSync(manifest));
  const { exports, ...publishConfig } = pkg.publishConfig ?? {};
  if (!exports) throw new Error('package.json has no publishConfig.exports');
  const published = { ...pkg, exports, publishConfig };
  if (Object.keys(publishConfig).length === 0) delete published.publishConfig;
  delete published.devDependencies;
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
}
