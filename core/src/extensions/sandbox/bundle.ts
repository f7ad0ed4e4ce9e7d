import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

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
      return { errors: [{ text: `A sandboxed plugin cannot use node:${bare}; it reaches files, the network, the environment and processes only through its context.` }] };
    });
  },
};

/**
 * Bundles a plugin's server entry, its npm packages and the isolate's runtime into one script
 * (TypeScript compiled on the way, as the SDK's developer experience promises).
 */
export async function bundlePlugin(packageDir: string, serverEntry: string): Promise<string> {
  const entry = resolve(packageDir, serverEntry);
  const result = await build({
    stdin: {
      contents: `import ${JSON.stringify(join(INSIDE, 'entry.ts'))};\nimport plugin from ${JSON.stringify(entry)};\nglobalThis.__fieldbookPlugin = plugin;\n`,
      resolveDir: packageDir,
      sourcefile: 'fieldbook-sandbox-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['import', 'default'],
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [nodeModules],
    logLevel: 'silent',
    legalComments: 'none',
  });
  return result.outputFiles[0]!.text;
}
