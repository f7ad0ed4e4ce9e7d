import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'core/src/**/*.test.ts',
      'modules/*/src/**/*.test.ts',
      'modules/*/web/**/*.test.ts',
      'extensions-sdk/src/**/*.test.ts',
      'plugins/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'host-web/src/**/*.test.ts',
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    // graphql-http and the schema tools must load the one graphql realm (else "another module or realm").
    server: { deps: { inline: ['graphql-http', /@graphql-tools/, 'graphql'] } },
    pool: 'forks',
    // Plugin sandboxes (isolated-vm) need Node without its startup snapshot, whose shared heap crashes them.
    execArgv: ['--no-node-snapshot'],
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'tests/.artifacts/vitest.json' },
  },
});
