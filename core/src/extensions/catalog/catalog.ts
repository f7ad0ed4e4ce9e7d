import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  checkSdkRange,
  parsePluginManifest,
  type ConfigDeclaration,
  type PluginDefinition,
  type PluginManifest,
} from '@fieldbook/extensions-sdk/server';
import type { Logger } from '../../logger.ts';
import { loadSandboxedPlugin, type PluginIsolate, type SandboxLimits } from '../sandbox/index.ts';
import { verifyPackageIntegrity, type IntegrityOptions } from './integrity.ts';

/** `ready` plugins may be installed; the others are listed with the reason they are not. */
export type PluginState = 'ready' | 'not-configured' | 'failed';

/** Where a plugin came from, as the admin screen shows it. */
export interface PluginOrigin {
  /** `bundled`: a folder of the plugins folder; `npm`: a package named in FIELDBOOK_PLUGINS; `built-in`: handed to Fieldbook in code (its tests, the SDK's test host). */
  kind: 'bundled' | 'npm' | 'built-in';
  /** The package's name, or the name FIELDBOOK_PLUGINS gives when it cannot be found. */
  packageName: string | null;
  packageVersion: string | null;
  /** The package's folder on the server. */
  path: string | null;
  /** The tarball integrity an npm package was checked against. */
  integrity: string | null;
}

const BUILT_IN: PluginOrigin = {
  kind: 'built-in',
  packageName: null,
  packageVersion: null,
  path: null,
  integrity: null,
};

export interface LoadedPlugin {
  id: string;
  manifest: PluginManifest;
  definition: PluginDefinition;
  state: PluginState;
  /** What is wrong, in words an operator can act on; null when ready. */
  problem: string | null;
  /** The operator configuration the plugin declared, read from the environment. */
  config: Record<string, string | undefined>;
  /** Origins of configured base URLs: the plugin may call them although undeclared. */
  trustedOrigins: string[];
  /** Folder of the built web remote (served at /plugins/{id}/web/), when it has one. */
  webDir: string | null;
  /** Where its server code runs: its own sandbox, or the server process (trusted). */
  isolation: 'sandbox' | 'in-process';
  origin: PluginOrigin;
}

/** A plugin package that could not be loaded at all: shown to operators, never installable. */
export interface BrokenPlugin {
  /** Its folder, or its id when it loaded but was found invalid. */
  source: string;
  problem: string;
  /** What to call it on the admin screen: its name, id, package name or folder name, whichever is known. */
  name: string;
  origin: PluginOrigin;
}

export interface PluginCatalog {
  plugins: readonly LoadedPlugin[];
  broken: readonly BrokenPlugin[];
  get(id: string): LoadedPlugin | undefined;
  ready(id: string): LoadedPlugin | undefined;
  /** Frees every plugin sandbox (the server is closing); their plugins' calls are refused from then on. */
  close(): void;
}

/** Where a plugin package says its parts are: `"fieldbook": { "server": "./server/index.ts", "web": "./web/dist" }`. */
interface PackageFields {
  name?: string;
  version?: string;
  fieldbook?: { server?: string; web?: string };
}

export interface CatalogSources {
  /** The bundled plugins' folder (`plugins/`); each sub-folder with a package.json is one plugin. */
  dir: string | null;
  /** npm package names, resolved from the project root. */
  packages: readonly string[];
  /** Definitions given directly (tests, the SDK's test host). */
  definitions?: readonly PluginDefinition[];
  /**
   * Plugin package folders given directly (the SDK's test host): each loads as a folder of the
   * plugins folder does, sandboxed unless its folder name is trusted, with the same bundling and limits.
   */
  folders?: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  projectRoot: string;
  logger: Logger;
  /** Where plugin packages' server code runs; without it, every plugin runs in-process. */
  isolation?: PluginIsolation;
  /** How npm plugin packages are checked before they load (pinned integrities, npm's cache). */
  integrity?: Omit<IntegrityOptions, 'projectRoot'>;
}

export interface PluginIsolation {
  /** Runs each plugin package in a sandbox of its own unless it is trusted. */
  sandbox: boolean;
  /** Folder names of bundled plugins (in `dir`) the operator trusts to run in-process; npm packages never are. */
  trusted: readonly string[];
  limits?: Partial<SandboxLimits>;
  /** Where sandboxed plugins' bundles are kept between starts (FIELDBOOK_DATA_DIR/plugin-bundles). */
  bundleDir?: string;
}

interface PackageDir {
  dir: string;
  /** Bundled (in `plugins/`) under this folder name, which the operator may trust; null for npm packages. */
  bundledAs: string | null;
  /** The name FIELDBOOK_PLUGINS gives an npm package; null for bundled ones. */
  npmName: string | null;
  /** Why the package cannot even be found; it is then listed as failed. */
  missing?: string;
  /** Named as a plugin (CatalogSources.folders), so a folder without a server part is a mistake, not another folder. */
  given?: boolean;
}

const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * The folder of an installed npm package, looked up as Node would (node_modules of the project
 * and its parents) but without resolving through its `exports`, which need not list package.json.
 */
function findNpmPackage(name: string, projectRoot: string): string | null {
  const require = createRequire(join(projectRoot, 'package.json'));
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = join(base, name);
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return null;
}

function packageDirs(sources: CatalogSources): PackageDir[] {
  const dirs: PackageDir[] = [];
  if (sources.dir && existsSync(sources.dir)) {
    for (const entry of readdirSync(sources.dir, { withFileTypes: true })) {
      const dir = join(sources.dir, entry.name);
      if (entry.isDirectory() && existsSync(join(dir, 'package.json')))
        dirs.push({ dir, bundledAs: entry.name, npmName: null });
    }
  }
  for (const folder of sources.folders ?? []) {
    const dir = resolve(folder);
    const found: PackageDir = { dir, bundledAs: basename(dir), npmName: null, given: true };
    dirs.push(
      existsSync(join(dir, 'package.json'))
        ? found
        : { ...found, missing: `${dir} is not a plugin package: it has no package.json.` },
    );
  }
  for (const name of sources.packages) {
    if (!NPM_NAME.test(name) || name.length > 214) {
      dirs.push({
        dir: name,
        bundledAs: null,
        npmName: name,
        missing: `FIELDBOOK_PLUGINS names "${name}", which is not an npm package name.`,
      });
      continue;
    }
    const dir = findNpmPackage(name, sources.projectRoot);
    dirs.push(
      dir
        ? { dir, bundledAs: null, npmName: name }
        : {
            dir: name,
            bundledAs: null,
            npmName: name,
            missing: `The npm package ${name} is not installed: run npm install ${name} in ${sources.projectRoot}, or remove it from FIELDBOOK_PLUGINS.`,
          },
    );
  }
  return dirs.sort((a, b) => a.dir.localeCompare(b.dir));
}

function originOf(found: PackageDir, pkg: PackageFields | null, integrity: string | null): PluginOrigin {
  return {
    kind: found.bundledAs === null ? 'npm' : 'bundled',
    packageName: pkg?.name ?? found.npmName,
    packageVersion: pkg?.version ?? null,
    path: found.missing ? null : found.dir,
    integrity,
  };
}

function runsInSandbox(isolation: PluginIsolation | undefined, pkg: PackageDir): boolean {
  if (!isolation?.sandbox) return false;
  return pkg.bundledAs === null || !isolation.trusted.includes(pkg.bundledAs);
}

/** Imports a plugin's server entry: into a sandbox of its own, or into this process when trusted. */
async function importServer(
  pkg: PackageDir,
  serverEntry: string,
  sources: CatalogSources,
  isolates: PluginIsolate[],
  /** The files an npm package ships (its tarball's); its sandbox's bundle may hold no other file of its folder. */
  shipped?: ReadonlySet<string>,
): Promise<{ definition: unknown; isolation: LoadedPlugin['isolation'] }> {
  if (runsInSandbox(sources.isolation, pkg)) {
    const loaded = await loadSandboxedPlugin({
      packageDir: pkg.dir,
      serverEntry,
      shipped,
      logger: sources.logger,
      limits: sources.isolation?.limits,
      bundleDir: sources.isolation?.bundleDir,
    });
    isolates.push(loaded.isolate);
    return { definition: loaded.definition, isolation: 'sandbox' };
  }
  const mod = (await import(pathToFileURL(resolve(pkg.dir, serverEntry)).href)) as { default?: unknown };
  return { definition: mod.default, isolation: 'in-process' };
}

/** Reads the operator configuration a plugin declared; missing required values make it not configured. */
export function readPluginConfig(declaration: ConfigDeclaration, env: Readonly<Record<string, string | undefined>>) {
  const config: Record<string, string | undefined> = {};
  const missing: string[] = [];
  const trustedOrigins: string[] = [];
  for (const [key, field] of Object.entries(declaration)) {
    const value = env[field.env]?.trim() || field.default;
    config[key] = value;
    if (field.required && !value) missing.push(field.env);
    if (field.url && value) {
      try {
        trustedOrigins.push(new URL(value).origin);
      } catch {
        missing.push(`${field.env} (not a URL)`);
      }
    }
  }
  return { config, missing, trustedOrigins };
}

/** Checks what the manifest cannot: a definition's contributions fit together and with others. */
function checkDefinition(definition: PluginDefinition, takenPaths: Map<string, string>): void {
  const manifest = parsePluginManifest(definition.manifest);
  checkSdkRange(manifest);
  for (const hook of definition.server.webhooks ?? []) {
    // /hooks/{pluginId}/{key} are installations' own URLs; a fixed path there could catch their deliveries.
    if (hook.path === '/hooks' || hook.path.startsWith('/hooks/'))
      throw new Error(`The webhook path ${hook.path} is under /hooks/, where installations' own webhook URLs are.`);
    const owner = takenPaths.get(hook.path);
    if (owner) throw new Error(`The webhook path ${hook.path} is already taken by ${owner}.`);
  }
  const camel = manifest.id.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  for (const name of [
    ...Object.keys(definition.server.graphql?.query ?? {}),
    ...Object.keys(definition.server.graphql?.mutation ?? {}),
  ]) {
    if (!name.startsWith(camel)) throw new Error(`The GraphQL field ${name} must start with "${camel}".`);
  }
}

function isDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && 'manifest' in value && 'server' in value && 'settings' in value;
}

/**
 * Finds, loads and validates every plugin. One that fails to import or validate is logged and
 * left out (or listed as failed); the others load regardless, and the app keeps running.
 */
export async function loadPluginCatalog(sources: CatalogSources): Promise<PluginCatalog> {
  // Definitions given directly are already in this process: they run there.
  const definitions: Array<{
    definition: PluginDefinition;
    webDir: string | null;
    isolation: LoadedPlugin['isolation'];
    origin: PluginOrigin;
  }> = (sources.definitions ?? []).map((definition) => ({
    definition,
    webDir: null,
    isolation: 'in-process',
    origin: BUILT_IN,
  }));
  const broken: BrokenPlugin[] = [];
  // Every sandbox made, listed or not (a plugin found invalid after loading still has one), so close frees them all.
  const isolates: PluginIsolate[] = [];
  // What is known of each package so far, for the listing of one that fails.
  const known = new Map<PackageDir, PluginOrigin>();
  const load = async (found: PackageDir) => {
    known.set(found, originOf(found, null, null));
    if (found.missing) throw new Error(found.missing);
    let pkg: PackageFields;
    try {
      pkg = JSON.parse(readFileSync(join(found.dir, 'package.json'), 'utf8')) as PackageFields;
    } catch (err) {
      throw new Error(`Its package.json cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    known.set(found, originOf(found, pkg, null));
    const serverEntry = pkg.fieldbook?.server;
    if (!serverEntry) {
      if (found.npmName)
        throw new Error(
          `${found.npmName} is not a Fieldbook plugin: its package.json has no "fieldbook": { "server": … } entry.`,
        );
      if (found.given)
        throw new Error(
          `${found.dir} is not a Fieldbook plugin: its package.json has no "fieldbook": { "server": … } entry.`,
        );
      return null; // a folder without a Fieldbook server part is not a plugin
    }
    // Checked before any of its code is read, so a changed package never runs.
    const verified = found.npmName
      ? verifyPackageIntegrity(found.npmName, found.dir, { projectRoot: sources.projectRoot, ...sources.integrity })
      : null;
    const origin = originOf(found, pkg, verified?.integrity ?? null);
    known.set(found, origin);
    const { definition, isolation } = await importServer(found, serverEntry, sources, isolates, verified?.files);
    if (!isDefinition(definition)) throw new Error(`${serverEntry} must default-export definePlugin(...).`);
    const web = pkg.fieldbook?.web ? resolve(found.dir, pkg.fieldbook.web) : null;
    return { definition, webDir: web && existsSync(web) ? web : null, isolation, origin };
  };
  // Bundling sandboxed plugins takes a while each: they load side by side, and are listed in order.
  const found = packageDirs(sources);
  const outcomes = await Promise.allSettled(found.map(load));
  outcomes.forEach((outcome, i) => {
    const pkg = found[i]!;
    if (outcome.status === 'fulfilled') {
      if (outcome.value) definitions.push(outcome.value);
      return;
    }
    const problem = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
    sources.logger.error({ plugin: pkg.dir, err: problem }, 'a plugin failed to load and is disabled');
    const origin = known.get(pkg) ?? originOf(pkg, null, null);
    broken.push({ source: pkg.dir, problem, name: origin.packageName ?? pkg.bundledAs ?? pkg.dir, origin });
  });

  const plugins: LoadedPlugin[] = [];
  const takenPaths = new Map<string, string>();
  for (const { definition, webDir, isolation, origin } of definitions) {
    const id = definition.manifest.id;
    try {
      if (plugins.some((p) => p.id === id)) throw new Error(`Another plugin already has the id ${id}.`);
      checkDefinition(definition, takenPaths);
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      sources.logger.error({ plugin: id, err: problem }, 'a plugin is invalid and is disabled');
      const named = [definition.manifest.name, id, origin.packageName].find(
        (n): n is string => typeof n === 'string' && n.trim() !== '',
      );
      broken.push({
        source: typeof id === 'string' ? id : (origin.path ?? 'unknown'),
        problem,
        name: named ?? origin.path ?? 'A plugin',
        origin,
      });
      continue;
    }
    for (const hook of definition.server.webhooks ?? []) takenPaths.set(hook.path, id);
    const { config, missing, trustedOrigins } = readPluginConfig(definition.config, sources.env);
    plugins.push({
      id,
      manifest: definition.manifest,
      definition,
      state: missing.length ? 'not-configured' : 'ready',
      problem: missing.length ? `Set ${missing.join(', ')} to use ${definition.manifest.name}.` : null,
      config,
      trustedOrigins,
      webDir,
      isolation,
      origin,
    });
  }
  return catalogOf(plugins, broken, isolates);
}

export function catalogOf(
  plugins: readonly LoadedPlugin[],
  broken: readonly BrokenPlugin[] = [],
  isolates: readonly PluginIsolate[] = [],
): PluginCatalog {
  const byId = new Map(plugins.map((p) => [p.id, p]));
  return {
    plugins,
    broken,
    close: () => {
      for (const isolate of isolates) isolate.dispose();
    },
    get: (id) => byId.get(id),
    ready: (id) => {
      const p = byId.get(id);
      return p?.state === 'ready' ? p : undefined;
    },
  };
}

/** Marks a plugin failed after loading (its setup threw); it stays listed with the reason. */
export function markFailed(plugin: LoadedPlugin, problem: string): void {
  plugin.state = 'failed';
  plugin.problem = problem;
}
