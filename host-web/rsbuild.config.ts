import { createRequire } from 'node:module';
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { pluginPrecompress } from '@fieldbook/extensions-sdk/rsbuild';

const require = createRequire(import.meta.url);
const versionOf = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;

/**
 * The Fieldbook web app. It is a Module Federation host: plugin remotes are registered at run
 * time from the server's list, and they get React, the router and the SDK's web part from here
 * (singletons, so hooks and contexts are shared).
 */
export default defineConfig({
  root: import.meta.dirname,
  source: {
    entry: { index: './src/index.tsx' },
  },
  html: {
    template: './index.html',
    title: 'Fieldbook',
    mountId: 'root',
    favicon: './public/favicon.svg',
    meta: { description: 'Fieldbook: your team’s customer research, in one place.' },
  },
  output: {
    distPath: { root: 'dist' },
    cleanDistPath: true,
    sourceMap: { js: 'source-map' },
  },
  performance: {
    chunkSplit: {
      strategy: 'split-by-experience',
      // Mantine is used by every page: one vendor file, cached across releases of the app's code.
      forceSplitting: { 'lib-mantine': /node_modules[\\/]@mantine[\\/]/ },
    },
  },
  plugins: [
    pluginReact(),
    // Fieldbook serves the .br or .gz copy of each file to browsers that accept it.
    pluginPrecompress(),
    pluginModuleFederation({
      name: 'fieldbook',
      dts: false,
      shared: {
        react: { singleton: true, requiredVersion: `^${versionOf('react')}` },
        'react-dom': { singleton: true, requiredVersion: `^${versionOf('react-dom')}` },
        'react/jsx-runtime': { singleton: true, requiredVersion: `^${versionOf('react')}` },
        'react-router': { singleton: true, requiredVersion: `^${versionOf('react-router')}` },
        '@fieldbook/extensions-sdk/web': { singleton: true, requiredVersion: '^0.1.0', version: '0.1.0' },
      },
    }),
  ],
});
