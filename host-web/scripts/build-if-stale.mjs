#!/usr/bin/env node
// Builds the web app only when its sources changed since the last build: a hash of every source
// file (host-web, the SDK's web part, the modules' web parts, build config) is kept in dist.
// `npm start` and `npm test` call it, so a fresh checkout gets a build and a current one starts fast.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const hostWeb = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(hostWeb, '..');
const dist = join(hostWeb, 'dist');
const force = process.argv.includes('--force');

/** Every file under `dir`, skipping dependencies, build output and tests. */
function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

function sources() {
  const files = [
    ...walk(join(hostWeb, 'src')),
    ...walk(join(hostWeb, 'public')),
    ...walk(join(root, 'extensions-sdk', 'src', 'web')),
    ...walk(join(root, 'extensions-sdk', 'src', 'build')), // the precompression step
    join(hostWeb, 'rsbuild.config.ts'),
    join(hostWeb, 'index.html'),
    join(hostWeb, 'package.json'),
    join(root, 'extensions-sdk', 'package.json'),
    join(root, 'package-lock.json'),
  ];
  const modules = join(root, 'modules');
  if (existsSync(modules)) {
    for (const name of readdirSync(modules)) {
      const pkg = join(modules, name, 'package.json');
      if (!existsSync(pkg)) continue;
      files.push(pkg);
      // Every export but the server entry (".") may reach the browser: `./web`, and shared code
      // such as `@fieldbook/search/filters`. Each counts with the whole folder it lives in.
      const exports = JSON.parse(readFileSync(pkg, 'utf8')).exports ?? {};
      for (const [key, target] of Object.entries(exports)) {
        if (key !== '.' && typeof target === 'string') files.push(...walk(dirname(join(modules, name, target))));
      }
    }
  }
  return files.filter((f) => existsSync(f)).sort();
}

function hashOf(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const require = createRequire(join(hostWeb, 'package.json'));
const rsbuildPkg = require.resolve('@rsbuild/core/package.json');
const rsbuildBin = JSON.parse(readFileSync(rsbuildPkg, 'utf8')).bin;
const cli = join(dirname(rsbuildPkg), typeof rsbuildBin === 'string' ? rsbuildBin : rsbuildBin.rsbuild);

/**
 * Builds one Rsbuild project when its sources' hash differs from the stamp in its output. With
 * `outEnv`, the build writes into a folder beside `out` (named to it by that environment variable)
 * and replaces `out` only once it succeeded: a server reading `out` meanwhile keeps answering from
 * the previous build, where building in place would empty it for the whole build.
 */
function buildIfStale({ label, cwd, args, files, out, expect, outEnv }) {
  const started = Date.now();
  const stampPath = join(out, '.build-stamp');
  const stamp = hashOf(files);
  const built = existsSync(join(out, expect)) && existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : null;
  if (!force && built === stamp) {
    console.log(`${label} is up to date (${files.length} sources checked in ${Date.now() - started} ms)`);
    return;
  }
  console.log(built ? `${label} sources changed: rebuilding` : `building ${label}`);
  const target = outEnv ? `${out}.next` : out;
  if (outEnv) rmSync(target, { recursive: true, force: true });
  const env = { ...process.env, NODE_ENV: 'production', ...(outEnv ? { [outEnv]: target } : {}) };
  const res = spawnSync(process.execPath, [cli, 'build', ...args], { cwd, stdio: 'inherit', env });
  if (res.status !== 0) {
    console.error(`${label} build failed (exit code ${res.status ?? res.signal})`);
    process.exit(res.status || 1);
  }
  if (!existsSync(join(target, expect)) || !statSync(join(target, expect)).isFile()) {
    console.error(`${label} build wrote no ${expect}`);
    process.exit(1);
  }
  writeFileSync(join(target, '.build-stamp'), `${stamp}\n`);
  if (outEnv) {
    // Two renames: the folder is missing only between them, not for the whole build.
    const previous = `${out}.previous`;
    rmSync(previous, { recursive: true, force: true });
    if (existsSync(out)) renameSync(out, previous);
    renameSync(target, out);
    rmSync(previous, { recursive: true, force: true });
  }
  console.log(`${label} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

buildIfStale({
  label: 'web app',
  cwd: hostWeb,
  args: [],
  files: sources(),
  out: dist,
  expect: 'index.html',
  outEnv: 'FIELDBOOK_WEB_BUILD_DIR',
});

// Each plugin with a web part is a Module Federation remote of its own, served from its folder.
const pluginsDir = join(root, 'plugins');
if (existsSync(pluginsDir)) {
  for (const id of readdirSync(pluginsDir).sort()) {
    const pluginRoot = join(pluginsDir, id);
    const config = join(pluginRoot, 'rsbuild.config.ts');
    if (!existsSync(config)) continue;
    const files = [
      ...walk(join(pluginRoot, 'web')),
      config,
      join(pluginRoot, 'package.json'),
      ...walk(join(root, 'extensions-sdk', 'src', 'build')),
      ...walk(join(root, 'extensions-sdk', 'src', 'web')),
      join(root, 'package-lock.json'),
    ]
      .filter((f) => existsSync(f))
      .sort();
    buildIfStale({
      label: `plugin ${id} web part`,
      cwd: pluginRoot,
      args: ['-c', config],
      files,
      out: join(pluginRoot, 'web', 'dist'),
      expect: 'mf-manifest.json',
    });
  }
}
