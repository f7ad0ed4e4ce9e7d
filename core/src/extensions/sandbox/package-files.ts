import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * What a sandboxed plugin's bundle may be made of: the files of its own package, the npm packages
 * it imports by name, and the sandbox's runtime. esbuild inlines whatever a plugin names (`import
 * env from '/proc/self/environ' with { type: 'text' }`, a JSON import of `../../.data/config.json`,
 * a symlink in the package to the data folder), so a bundle could carry the server's environment
 * or secret key into the plugin. Every file esbuild loads is checked here, by its real path, before
 * it is read; a file the check refuses stops the bundle with the reason.
 */
export interface PackageFiles {
  /** The plugin package's folder. */
  dir: string;
  /**
   * The files its package ships, relative to `dir` with `/` between folders (an npm package's
   * tarball, as its integrity check read it); unset, every file in its folder is its own.
   */
  shipped?: ReadonlySet<string>;
}

/** The sandbox's own folder: the runtime the bundle starts with and the codec it shares with the host. */
const RUNTIME = realOr(import.meta.dirname);

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `file` is `folder` or inside it. */
function within(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** An npm package name's part of an import path: `zod` of `zod/v4`, `@scope/name` of `@scope/name/sub`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function nameInPackageJson(dir: string): string | null {
  try {
    const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/**
 * The folder of the installed package a file imported as `specifier` belongs to: the nearest one
 * above it with that package's name, or one installed straight into a node_modules folder (an
 * alias); null when there is none (a tsconfig path, say, leading elsewhere).
 */
function installedPackageOf(specifier: string, real: string): string | null {
  const name = packageNameOf(specifier);
  for (let dir = dirname(real); dir !== dirname(dir); dir = dirname(dir)) {
    if (!existsSync(join(dir, 'package.json'))) continue;
    const installed =
      basename(dirname(dir)) === 'node_modules' ||
      (name.startsWith('@') && basename(dirname(dirname(dir))) === 'node_modules');
    if (installed || nameInPackageJson(dir) === name) return dir;
  }
  return null;
}

export class PackageBoundary {
  /** The package's folder, by its real path. */
  readonly root: string;
  /** Real folders of the npm packages the bundle imports by name. */
  readonly packages = new Set<string>();

  constructor(private readonly files: PackageFiles) {
    this.root = realOr(files.dir);
  }

  /** How a refused file is named in the reason: from the package's folder, as its code would name it. */
  private shown(real: string): string {
    return relative(this.root, real).split(sep).join('/');
  }

  /** Why the bundle may not hold this file (an absolute path, as esbuild names it), or null when it may. */
  refusal(file: string): string | null {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return null; // not there: esbuild fails to read it and says so
    }
    if (within(real, RUNTIME)) return null;
    if (within(real, this.root)) {
      const rel = relative(this.root, real).split(sep);
      if (this.files.shipped && !rel.includes('node_modules') && !this.files.shipped.has(rel.join('/')))
        return `${rel.join('/')} is not one of the files the plugin's package ships, so it cannot be bundled.`;
      return null;
    }
    for (const pkg of this.packages) if (within(real, pkg)) return null;
    const leads = real === resolve(file) ? '' : ` (${file} leads there)`;
    return `${this.shown(real)}${leads} is outside the plugin's package; a sandboxed plugin may bundle only its own files and the npm packages it imports.`;
  }

  /** Admits the installed package an import by name resolved into; answers why not when it is no such package. */
  admitPackage(specifier: string, resolved: string): string | null {
    let real: string;
    try {
      real = realpathSync(resolved);
    } catch {
      return null;
    }
    if (within(real, this.root) || within(real, RUNTIME)) return null;
    const pkg = installedPackageOf(specifier, real);
    // A "package" holding the plugin's own folder would be the project around it, data folder and all.
    if (!pkg || within(this.root, pkg))
      return `${specifier} leads to ${this.shown(real)}, which is outside the plugin's package and not an installed npm package.`;
    this.packages.add(pkg);
    return null;
  }

  /** Whether a bundle made of these files (real paths) and packages could have been made under this check. */
  admitsKept(inputs: readonly string[], packages: readonly string[]): boolean {
    for (const pkg of packages) {
      if (within(this.root, pkg) || !existsSync(join(pkg, 'package.json'))) return false;
      this.packages.add(pkg);
    }
    return inputs.every((file) => this.refusal(file) === null);
  }
}

/** Marks esbuild's resolving on this plugin's behalf, which it need not check again. */
const RESOLVING = Symbol('fieldbook-package-files');

/** The esbuild plugin that keeps a bundle to `boundary`; `entry` is the plugin's server entry, named by absolute path. */
export function packageFilesPlugin(boundary: PackageBoundary, entry: string): Plugin {
  const refuse = (text: string) => ({ errors: [{ text }] });
  return {
    name: 'fieldbook-package-files',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.namespace !== 'file') return undefined;
        const path = args.path;
        if (/^file:/i.test(path))
          return refuse(
            `A sandboxed plugin cannot import a file: URL (${path}); it may bundle only its own files and the npm packages it imports.`,
          );
        if (isAbsolute(path)) {
          if (path === entry || within(realOr(path), RUNTIME)) return undefined;
          return refuse(
            `A sandboxed plugin cannot import an absolute path (${path}); it may bundle only its own files and the npm packages it imports.`,
          );
        }
        if (path === '.' || path === '..' || path.startsWith('./') || path.startsWith('../')) return undefined;
        if (path.split('/').some((part) => part === '.' || part === '..'))
          return refuse(`A sandboxed plugin cannot import ${path}: a package's path may not hold "." or "..".`);
        const found = await b.resolve(path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          namespace: args.namespace,
          with: args.with,
          pluginData: RESOLVING,
        });
        if (found.errors.length > 0 || found.external || found.namespace !== 'file' || !found.path) return undefined;
        const reason = boundary.admitPackage(path, found.path);
        return reason ? refuse(reason) : undefined;
      });
      // Every file, however it was named (globs of a dynamic import included), passes here before it is read.
      b.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const reason = boundary.refusal(args.path);
        return reason ? refuse(reason) : undefined;
      });
    },
  };
}
