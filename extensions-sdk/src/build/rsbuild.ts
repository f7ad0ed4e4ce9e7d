import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineConfig, type RsbuildConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { remoteName, SDK_VERSION } from '../index.ts';
import { pluginPrecompress } from './precompress.ts';

export { pluginPrecompress, precompressDir, type PrecompressResult } from './precompress.ts';

const require = createRequire(import.meta.url);
const versionOf = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;

export interface PluginWebBuild {
  /** The plugin's id, as in its manifest. */
  id: string;
  /** The plugin's folder (where its package.json is). */
  root: string;
  /** The module that default-exports `defineWebExtension(...)`; default `./web/index.tsx`. */
  entry?: string;
}

/**
 * The Rsbuild configuration of a plugin's web part: a Module Federation remote exposing
 * `./extension`, built into `web/dist` (with brotli and gzip copies of its files) and served by
 * Fieldbook at `/plugins/{id}/web/`. React,
 * react-dom, the router and the SDK's web part come from the app (shared singletons, never
 * bundled twice), so hooks and the host's context work across the boundary.
 */
export function pluginWebConfig({ id, root, entry = './web/index.tsx' }: PluginWebBuild): RsbuildConfig {
  const shared = { singleton: true, import: false as const };
  return defineConfig({
    root,
    source: { entry: {} },
    output: {
      distPath: { root: join('web', 'dist') },
      assetPrefix: `/plugins/${id}/web/`,
      cleanDistPath: true,
      filenameHash: true,
    },
    performance: { chunkSplit: { strategy: 'all-in-one' } },
    // Fieldbook serves a remote from its own origin; only `rsbuild dev` of a plugin is reached
    // across origins, from the app. Naming that origin keeps Module Federation from opening the
    // dev server to every site (and from warning about it on every build).
    server: { cors: { origin: process.env.PUBLIC_URL ?? 'http://localhost:3000' } },
    plugins: [
      pluginReact(),
      pluginPrecompress(),
      pluginModuleFederation({
        name: remoteName(id),
        dts: false,
        exposes: { './extension': entry },
        shared: {
          react: { ...shared, requiredVersion: `^${versionOf('react')}` },
          'react-dom': { ...shared, requiredVersion: `^${versionOf('react-dom')}` },
          'react/jsx-runtime': { ...shared, requiredVersion: `^${versionOf('react')}` },
          'react-router': { ...shared, requiredVersion: `^${versionOf('react-router')}` },
          // The app provides its SDK's web part; a plugin built against this SDK asks for the same major.
          '@fieldbook/extensions-sdk/web': { ...shared, requiredVersion: `^${SDK_VERSION}` },
        },
      }),
    ],
  });
}
