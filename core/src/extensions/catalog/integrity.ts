import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * The integrity of an npm plugin package is npm's own: the Subresource Integrity hash of the
 * package's tarball (`sha512-…`), as package-lock.json records it under `node_modules/<name>`, the
 * registry publishes it and `npm pack` prints it. An operator may pin it instead with
 * FIELDBOOK_PLUGIN_INTEGRITY.
 *
 * The installed folder is checked against it file by file: the tarball with that hash is read from
 * npm's cache (content-addressed by that very hash, so what is read is what was hashed) or from the
 * `file:` path the lockfile names, and every file in it must be in the folder, byte for byte. A
 * file changed or removed after `npm install` fails the check, before any of the plugin's code
 * runs. Files the tarball does not have (nested node_modules) are not the package's own.
 */
export interface IntegrityOptions {
  projectRoot: string;
  /** FIELDBOOK_PLUGIN_INTEGRITY: `name=sha512-…`, comma-separated. */
  pinned?: string;
  /** npm's cache folder (its `_cacache` is inside); default $npm_config_cache or ~/.npm. */
  npmCache?: string;
}

const SRI = /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/]+={0,2})$/;

export function defaultNpmCache(env: Readonly<Record<string, string | undefined>>): string {
  return env.npm_config_cache || join(homedir(), '.npm');
}

/** `name=sha512-…,other=sha512-…` as a map; malformed entries are kept so the plugin fails with the reason. */
export function parsePinnedIntegrity(value: string | undefined): Map<string, string> {
  const pins = new Map<string, string>();
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('='); // npm names never hold "=", integrities end with it
    if (eq <= 0) continue;
    pins.set(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim());
  }
  return pins;
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
}

function lockEntry(projectRoot: string, name: string): LockEntry | null {
  const file = join(projectRoot, 'package-lock.json');
  if (!existsSync(file)) return null;
  const { packages } = JSON.parse(readFileSync(file, 'utf8')) as { packages?: Record<string, LockEntry> };
  return packages?.[`node_modules/${name}`] ?? null;
}

/** Where cacache keeps content of this integrity (the path is derived from the hash itself). */
function cachedTarball(npmCache: string, integrity: string): string | null {
  const m = SRI.exec(integrity);
  if (!m) return null;
  const hex = Buffer.from(m[2]!, 'base64').toString('hex');
  const path = join(npmCache, '_cacache', 'content-v2', m[1]!, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  return existsSync(path) ? path : null;
}

function integrityOf(bytes: Buffer, algorithm: string): string {
  return `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;
}

/** The regular files of a package tarball, by their path inside the package (`package/` removed). */
export function tarballFiles(tgz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(tgz);
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | null = null;
  const text = (start: number, length: number) =>
    tar
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    const prefix = text(offset + 345, 155);
    let name = longName ?? (prefix ? `${prefix}/${text(offset, 100)}` : text(offset, 100));
    longName = null;
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'x') {
      // A pax header: its `path` record names the next entry.
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (path) longName = path[1]!;
    } else if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
    } else if (type === '0' || type === '\0') {
      name = name.replace(/^[^/]+\//, ''); // npm packs everything under one top folder, `package/`
      files.set(name, Buffer.from(body));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const short = (integrity: string) => (integrity.length > 24 ? `${integrity.slice(0, 20)}…` : integrity);

/**
 * Checks an installed npm plugin package against its integrity; throws with the reason, in words
 * an operator can act on, when it cannot be checked or does not match.
 */
export function verifyPackageIntegrity(
  name: string,
  dir: string,
  options: IntegrityOptions,
): { integrity: string; files: ReadonlySet<string> } {
  const pinned = parsePinnedIntegrity(options.pinned).get(name);
  const entry = lockEntry(options.projectRoot, name);
  if (pinned !== undefined && !SRI.test(pinned))
    throw new Error(
      `FIELDBOOK_PLUGIN_INTEGRITY gives ${name} "${pinned}", which is not an integrity such as sha512-….`,
    );
  if (pinned && entry?.integrity && pinned !== entry.integrity) {
    throw new Error(
      `Integrity mismatch: package-lock.json records ${short(entry.integrity)} for ${name}, FIELDBOOK_PLUGIN_INTEGRITY pins ${short(pinned)}.`,
    );
  }
  const expected = pinned ?? entry?.integrity;
  if (!expected) {
    throw new Error(
      entry?.link
        ? `${name} is linked, not installed, so it has no integrity to check: install it with npm install, or put it in the plugins folder.`
        : `No integrity is recorded for ${name}: install it with npm install (package-lock.json records it), or pin it with FIELDBOOK_PLUGIN_INTEGRITY=${name}=sha512-….`,
    );
  }
  const algorithm = SRI.exec(expected)![1]!;
  const npmCache = options.npmCache ?? defaultNpmCache(process.env);
  let tarballPath = cachedTarball(npmCache, expected);
  if (!tarballPath && entry?.resolved?.startsWith('file:')) {
    const local = entry.resolved.startsWith('file://')
      ? fileURLToPath(entry.resolved)
      : entry.resolved.slice('file:'.length);
    const path = isAbsolute(local) ? local : resolve(options.projectRoot, local);
    if (existsSync(path)) tarballPath = path;
  }
  if (!tarballPath) {
    throw new Error(
      `Cannot check ${name} against its integrity ${short(expected)}: its tarball is not in npm's cache (${npmCache}). Run npm install as the user Fieldbook runs as, or set FIELDBOOK_NPM_CACHE.`,
    );
  }
  const tgz = readFileSync(tarballPath);
  if (integrityOf(tgz, algorithm) !== expected)
    throw new Error(`Integrity mismatch: the tarball of ${name} (${tarballPath}) is not ${short(expected)}.`);
  const root = normalize(dir) + sep;
  const files = tarballFiles(tgz);
  for (const [file, content] of files) {
    const installed = normalize(join(dir, file));
    if (!installed.startsWith(root))
      throw new Error(`Integrity mismatch: the tarball of ${name} names a file outside its folder (${file}).`);
    if (!existsSync(installed)) throw new Error(`Integrity mismatch: ${file} of ${name} is missing from ${dir}.`);
    if (!readFileSync(installed).equals(content))
      throw new Error(`Integrity mismatch: ${file} of ${name} differs from its package (${short(expected)}).`);
  }
  // The files it ships: the only ones of its folder its sandbox's bundle may hold.
  return { integrity: expected, files: new Set(files.keys()) };
}
