import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { PackageBoundary } from './package-files.ts';

/**
 * Plugin bundles kept on disk (FIELDBOOK_DATA_DIR/plugin-bundles), so a start with unchanged
 * plugins does not bundle them again. A kept bundle is used only while everything it was made from
 * is unchanged: the sandbox's own version (its code, esbuild's and Node's versions), and each file
 * esbuild read (the plugin's sources, the SDK, the npm packages it imports and the sandbox's
 * runtime) with the package.json of the package each belongs to, so a dependency installed at
 * another version or edited in place counts as a change. Otherwise the plugin is bundled again and
 * the kept one replaced. A kept bundle holding a file the plugin may not bundle (package-files.ts),
 * however it came to be kept, is never used: the plugin is bundled again, and fails with the reason.
 */

/** Changes when what this file writes changes shape. */
const FORMAT = 2;

interface KeptBundle {
  format: number;
  sandbox: string;
  /** Hash of the bundle file beside this one, so a half-written or altered bundle is not run. */
  code: string;
  /** Absolute path to the hash of its content, of every file the bundle depends on. */
  files: Record<string, string>;
  /** The files esbuild read into the bundle (absolute paths). */
  inputs: string[];
  /** Folders of the npm packages the plugin imports by name, from which the bundle may hold files. */
  packages: string[];
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function fileHash(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

let sandboxVersionOnce: string | null = null;

/** The sandbox's own version: its source files (bundling options, stand-ins, runtime), esbuild's and Node's. */
export function sandboxVersion(): string {
  if (sandboxVersionOnce) return sandboxVersionOnce;
  const hash = createHash('sha256').update(`format ${FORMAT}\nesbuild ${esbuildVersion}\nnode ${process.version}\n`);
  for (const file of filesUnder(import.meta.dirname)) hash.update(`${file}\n`).update(readFileSync(file));
  sandboxVersionOnce = hash.digest('hex');
  return sandboxVersionOnce;
}

/** One place per plugin entry, whatever its content: a new bundle of the same plugin replaces the old. */
function slot(dir: string, packageDir: string, serverEntry: string): { manifest: string; code: string } {
  let real = packageDir;
  try {
    real = realpathSync(packageDir);
  } catch {
    // a folder that is gone is bundled (and fails) as named
  }
  const name = `${basename(real).replace(/[^a-zA-Z0-9_-]/g, '_')}-${sha256(`${real}\0${serverEntry}`).slice(0, 16)}`;
  return { manifest: join(dir, `${name}.json`), code: join(dir, `${name}.js`) };
}

/** The kept bundle of a plugin entry, when nothing it was made from has changed; null otherwise. */
export function readKeptBundle(
  dir: string,
  packageDir: string,
  serverEntry: string,
  shipped?: ReadonlySet<string>,
): string | null {
  const paths = slot(dir, packageDir, serverEntry);
  let kept: KeptBundle;
  let code: string;
  try {
    kept = JSON.parse(readFileSync(paths.manifest, 'utf8')) as KeptBundle;
    if (kept.format !== FORMAT || kept.sandbox !== sandboxVersion()) return null;
    if (!new PackageBoundary({ dir: packageDir, shipped }).admitsKept(kept.inputs, kept.packages)) return null;
    for (const [file, hash] of Object.entries(kept.files)) if (fileHash(file) !== hash) return null;
    code = readFileSync(paths.code, 'utf8');
  } catch {
    return null;
  }
  return sha256(code) === kept.code ? code : null;
}

/** The package.json of the package a file belongs to (the nearest one above it). */
function packageJsonOf(file: string, found: Map<string, string | null>): string | null {
  const dir = dirname(file);
  if (found.has(dir)) return found.get(dir)!;
  const here = join(dir, 'package.json');
  const answer = existsSync(here) ? here : dir === dirname(dir) ? null : packageJsonOf(dir, found);
  found.set(dir, answer);
  return answer;
}

/** Writes a file so that a reader sees the old one or the whole new one, never half of it. */
function writeWhole(path: string, data: string): void {
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  try {
    writeFileSync(partial, data);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Keeps a plugin entry's bundle with what it was made from (`inputs`: absolute paths esbuild read;
 * `packages`: folders of the npm packages it imports by name).
 */
export function keepBundle(
  dir: string,
  packageDir: string,
  serverEntry: string,
  code: string,
  inputs: readonly string[],
  packages: readonly string[] = [],
): void {
  const files: Record<string, string> = {};
  const packageJsons = new Map<string, string | null>();
  for (const input of inputs) {
    const hash = fileHash(input);
    if (hash === null) continue; // not a file on disk (the generated entry)
    files[input] = hash;
    const pkg = packageJsonOf(input, packageJsons);
    if (pkg && !(pkg in files)) files[pkg] = fileHash(pkg) ?? '';
  }
  mkdirSync(dir, { recursive: true });
  const paths = slot(dir, packageDir, serverEntry);
  // The bundle first: a manifest is only ever next to the bundle it describes.
  writeWhole(paths.code, code);
  writeWhole(
    paths.manifest,
    JSON.stringify({
      format: FORMAT,
      sandbox: sandboxVersion(),
      code: sha256(code),
      files,
      inputs: inputs.filter((input) => input in files),
      packages: [...packages],
    } satisfies KeptBundle),
  );
}
