import { createRequire } from 'node:module';
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { SDK_VERSION } from '@fieldbook/extensions-sdk';
import { pluginPrecompress } from '@fieldbook/extensions-sdk/rsbuild';

const require = createRequire(import.meta.url);
const versionOf = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;

/**
 * What the app's shared router offers plugins: the browser router's components and hooks. The
 * app ships only these (the whole package is 3 times larger, with server rendering and data
 * APIs the app does not use), so they are the router API a plugin's web part may use.
 */
const ROUTER_EXPORTS = [
  'Link', 'NavLink', 'Navigate', 'Outlet', 'RouterProvider', 'createBrowserRouter', 'createSearchParams', 'generatePath',
  'isRouteErrorResponse', 'matchPath', 'useBlocker', 'useHref', 'useInRouterContext', 'useLocation', 'useMatch', 'useNavigate',
  'useNavigation', 'useOutletContext', 'useParams', 'useResolvedPath', 'useRouteError', 'useSearchParams',
];

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
    pluginModuleFederation({
      name: 'fieldbook',
      dts: false,
      // The runtime without its Node.js code: this host only ever runs in a browser.
      experiments: { optimization: { target: 'web' } },
      shared: {
        react: { singleton: true, requiredVersion: `^${versionOf('react')}` },
        'react-dom': { singleton: true, requiredVersion: `^${versionOf('react-dom')}` },
        'react/jsx-runtime': { singleton: true, requiredVersion: `^${versionOf('react')}` },
        'react-router': { singleton: true, requiredVersion: `^${versionOf('react-router')}`, treeShaking: { mode: 'runtime-infer', usedExports: ROUTER_EXPORTS } },
        '@fieldbook/extensions-sdk/web': { singleton: true, requiredVersion: `^${SDK_VERSION}`, version: SDK_VERSION },
      },
    }),
  ],
});
