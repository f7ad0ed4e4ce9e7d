import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { build, type BuildFailure, type Message, type Plugin } from 'esbuild';
import type { Logger } from '../../logger.ts';
import { keepBundle, readKeptBundle } from './bundle-cache.ts';
import { PackageBoundary, packageFilesPlugin } from './package-files.ts';

const INSIDE = join(import.meta.dirname, 'inside');

/** Node's modules a sandboxed plugin may import, each replaced by what the isolate offers. */
const STAND_INS: Record<string, string> = {
  crypto: join(INSIDE, 'crypto.ts'),
  buffer: 'buffer',
};

/** npm packages swapped for a part that runs in the isolate. */
const PACKAGE_STAND_INS: Record<string, string> = {
  stripe: join(INSIDE, 'stripe.ts'),
};

/**
 * Any other Node module stops the bundle with a reason an operator can act on: the plugin reaches
 * files, network, environment and processes only through its context.
 */
const nodeModules: Plugin = {
  name: 'fieldbook-node-modules',
  setup(b) {
    const names = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const swapped = PACKAGE_STAND_INS[args.path];
      if (swapped) return { path: swapped };
      if (!names.has(args.path) && !args.path.startsWith('node:')) return undefined;
      const bare = args.path.replace(/^node:/, '');
      const standIn = STAND_INS[bare];
      if (standIn === 'buffer' && args.path === 'buffer') return undefined; // the npm package itself
      if (standIn) return b.resolve(standIn, { kind: args.kind, resolveDir: INSIDE });
      return {
        errors: [
          {
            text: `A sandboxed plugin cannot use node:${bare}; it reaches files, the network, the environment and processes only through its context.`,
          },
        ],
      };
    });
  },
};

/** esbuild's failure as an operator reads it: each problem with where in the plugin's code it is. */
function bundleError(err: unknown): unknown {
  const errors = (err as Partial<BuildFailure>)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return err;
  const where = (m: Message) => (m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : '');
  const shown = errors.slice(0, 5).map((m) => `${where(m)}${m.text}`);
  if (errors.length > shown.length) shown.push(`… and ${errors.length - shown.length} more`);
  return new Error(`Its server code cannot be bundled:\n${shown.join('\n')}`);
}

export interface PluginBundle {
  code: string;
  /** Whether the bundle kept on disk was used, rather than bundling again. */
  reused: boolean;
}

/**
 * Bundles a plugin's server entry, its npm packages and the isolate's runtime into one script
 * (TypeScript compiled on the way, as the SDK's developer experience promises). Only files of the
 * plugin's own package (those it `shipped`, when known), of the npm packages it imports and of the
 * runtime may be in it (package-files.ts). With `keepIn`, a bundle kept there from an earlier
 * start is used while nothing it was made from has changed.
 */
export async function bundlePlugin(
  packageDir: string,
  serverEntry: string,
  options: { keepIn?: string; logger?: Logger; shipped?: ReadonlySet<string> } = {},
): Promise<PluginBundle> {
  if (options.keepIn) {
    const kept = readKeptBundle(options.keepIn, packageDir, serverEntry, options.shipped);
    if (kept !== null) return { code: kept, reused: true };
  }
  const entry = resolve(packageDir, serverEntry);
  const boundary = new PackageBoundary({ dir: packageDir, shipped: options.shipped });
  const result = await build({
    stdin: {
      contents: `import ${JSON.stringify(join(INSIDE, 'entry.ts'))};\nimport plugin from ${JSON.stringify(entry)};\nglobalThis.__fieldbookPlugin = plugin;\n`,
      resolveDir: packageDir,
      sourcefile: 'fieldbook-sandbox-entry.ts',
      loader: 'ts',
    },
    // Paths in the bundle and its list of inputs are the plugin's own, whatever the server's folder.
    absWorkingDir: resolve(packageDir),
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['import', 'default'],
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [nodeModules, packageFilesPlugin(boundary, entry)],
    logLevel: 'silent',
    legalComments: 'none',
  }).catch((err: unknown) => {
    throw bundleError(err);
  });
  const code = result.outputFiles[0]!.text;
  if (options.keepIn) {
    const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(packageDir, input));
    try {
      keepBundle(options.keepIn, packageDir, serverEntry, code, inputs, [...boundary.packages]);
    } catch (err) {
      // Only the next start's speed depends on it: the plugin runs from the bundle in memory.
      options.logger?.warn(
        { dir: options.keepIn, err: err instanceof Error ? err.message : String(err) },
        'a plugin bundle could not be kept on disk; it is bundled again at the next start',
      );
    }
  }
  return { code, reused: false };
}
