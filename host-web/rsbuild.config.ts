import { createRequire } from 'node:module';
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { SDK_VERSION } from '@fieldbook/extensions-sdk';
import { pluginPrecompress } from '@fieldbook/extensions-sdk/rsbuild';

const require = createRequire(import.meta.url);
const versionOf = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;

/**
 * The Fieldbook web app. Plugin web parts are Module Federation remotes, registered at run time
 * from the server's list; the federation runtime is started only when the first of them is wanted
 * (src/extensions/remotes.ts), and it lends them the app's React, router and SDK web part
 * (singletons, so hooks and contexts are shared; src/extensions/shared-modules.ts). The build
 * itself is a plain one: no federation runtime in the first page's scripts, and the router
 * tree-shaken to what the app and plugins use.
 */
export default defineConfig({
  root: import.meta.dirname,
  source: {
    entry: { index: './src/index.tsx' },
    define: {
      FIELDBOOK_SHARED_VERSIONS: JSON.stringify({
        react: versionOf('react'),
        'react-dom': versionOf('react-dom'),
        'react-router': versionOf('react-router'),
        sdk: SDK_VERSION,
      }),
    },
  },
  html: {
    template: './index.html',
    title: 'Fieldbook',
    mountId: 'root',
    favicon: './public/favicon.svg',
    meta: { description: 'Fieldbook: your team’s customer research, in one place.' },
  },
  output: {
    // build-if-stale.mjs builds into a folder beside dist and swaps it in when done, so a running
    // Fieldbook serves the previous build meanwhile instead of an emptied folder.
    distPath: { root: process.env.FIELDBOOK_WEB_BUILD_DIR ?? 'dist' },
    cleanDistPath: true,
    sourceMap: { js: 'source-map' },
  },
  performance: {
    chunkSplit: {
      strategy: 'split-by-experience',
      // Popover positioning (menus, selects, tooltips) in a file of its own, apart from what
      // every page needs.
      forceSplitting: { 'lib-floating-ui': /node_modules[\\/]@floating-ui[\\/]/ },
    },
  },
  plugins: [
    pluginReact(),
    // Fieldbook serves the .br or .gz copy of each file to browsers that accept it.
    pluginPrecompress(),
  ],
});
