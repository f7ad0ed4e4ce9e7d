import { defineConfig } from '@playwright/test';

// The Fieldbook each worker starts runs plugins in sandboxes (isolated-vm), which need Node without
// its startup snapshot; workers inherit this.
if (!process.env.NODE_OPTIONS?.includes('--no-node-snapshot'))
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --no-node-snapshot`.trim();

/**
 * Browser tests drive Debian's Chromium against a real Fieldbook (embedded PostgreSQL, real SMTP
 * server, the built web app), started once per worker by tests/browser/support/fixtures.ts.
 */
export default defineConfig({
  testDir: 'tests/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/browser/support/global-setup.ts',
  outputDir: 'test-results',
  // Every test sets up the people and data it needs, so the tests of one file need not run in
  // order on one worker: each goes to whichever worker is free, and a long file no longer leaves
  // the other worker idle at the end of the run.
  fullyParallel: true,
  // Two workers, each with a Fieldbook of its own (fixtures are worker-scoped): most of a browser
  // test is waiting on the page, so two share the CI machine's two cores without starving each
  // other and the run takes about half as long. PLAYWRIGHT_WORKERS=1 runs them one at a time.
  workers: Number(process.env.PLAYWRIGHT_WORKERS ?? 2),
  // One retry, so a browser hiccup on a loaded machine does not sink a run; `npm test` still
  // reports every test that needed it as flaky, with the page it failed on.
  retries: 1,
  // Two workers and their two Fieldbooks share two cores: the longest tests take 40 s when the
  // machine is busy, so a test has half as long again before it counts as hung.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
