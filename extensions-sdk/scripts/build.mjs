#!/usr/bin/env node
// `npm run build`: the SDK as JavaScript with type declarations in dist/ (or the folder given),
// what the published package's exports point at. Inside the Fieldbook repository nothing needs it:
// there the exports point at the TypeScript sources (see pack-manifest.mjs).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.argv[2] ? resolve(process.argv[2]) : join(pkg, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = join(dirname(fileURLToPath(import.meta.resolve('typescript'))), '..', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.build.json'), '--outDir', dist], { stdio: 'inherit' });

// tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but not in declarations, which a
// consumer's TypeScript would then look up as sources that are not shipped.
const declarations = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarations(join(dir, e.name)) : e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
for (const file of declarations(dist)) {
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.tsx?\2/g, '$1$2$3.js$2');
  if (fixed !== text) writeFileSync(file, fixed);
}
console.log(`Built ${dist}`);
