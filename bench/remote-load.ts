import { chromium } from '@playwright/test';
import { graphql, percentile, round } from './support.ts';

export interface RemoteLoadBench {
  /** Project extensions page, Slack enabled: until the Slack panel (loaded as a remote) shows. */
  withSlotMs: { p50: number; p95: number };
  /** The same page with the slot empty (Slack off): until the page's own content shows. */
  emptySlotMs: { p50: number; p95: number };
  extraMs: number;
  runs: number;
}

const RUNS = 10;

/**
 * What one plugin slot costs a page: the project's extensions page opened afresh (a new page, so
 * the remote's manifest and code are fetched as a visitor's first visit would, HTTP cache aside)
 * with the Slack panel in its slot, against the same page with no plugin enabled.
 */
export async function benchRemoteLoad(opts: {
  url: string;
  token: string;
  workspaceId: string;
  email: string;
  password: string;
  projectId: string;
  log(line: string): void;
}): Promise<RemoteLoadBench> {
  const { url, token, workspaceId, projectId } = opts;
  const setSlack = (enabled: boolean) =>
    graphql(
      url,
      'mutation($p: ID!, $e: Boolean!) { setProjectPluginEnabled(projectId: $p, pluginId: "slack", enabled: $e) { enabled } }',
      { p: projectId, e: enabled },
      token,
      workspaceId,
    );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${url}/auth/login`);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(opts.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(opts.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/home$/);
    await page.close();
    const time = async (ready: (p: import('@playwright/test').Page) => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < RUNS + 1; i++) {
        const p = await context.newPage();
        const started = performance.now();
        await p.goto(`${url}/projects/${projectId}/settings/extensions`);
        await ready(p);
        if (i > 0) samples.push(performance.now() - started); // the first run warms the server
        await p.close();
      }
      return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
    };
    opts.log('remote load: project extensions page with and without the Slack panel ...');
    await setSlack(false);
    const emptySlotMs = await time((p) => p.getByRole('switch', { name: 'Slack' }).waitFor());
    await setSlack(true);
    const withSlotMs = await time((p) =>
      p.getByRole('region', { name: 'Slack' }).getByText('Connected', { exact: false }).waitFor(),
    );
    return { withSlotMs, emptySlotMs, extraMs: round(withSlotMs.p50 - emptySlotMs.p50), runs: RUNS };
  } finally {
    await browser.close();
  }
}
