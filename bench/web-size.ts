/**
 * The web app's initial JavaScript as a visitor's browser receives it: every script file Chromium
 * loads to show the sign-in page, and the workspace home of a workspace with the Slack plugin
 * installed, each opened with an empty cache until the network is quiet. Sizes
 * are bytes on the wire (compressed when served compressed) beside the decoded size.
 *
 * `npm run bench` runs it after the webhook benchmark (Slack is installed there).
 * `tsx bench/web-size.ts` runs it alone: it starts Fieldbook on a new embedded database in a
 * temporary folder, signs a person up, makes a workspace with Slack installed, measures, and
 * removes the folder. Build the web app first (`npm run build:web`).
 */
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { graphql, round, runAlone } from './support.ts';

export interface PageScripts {
  /** Script files loaded. */
  files: number;
  /** Their bytes on the wire, in KB (1,000 bytes), as the server sent them. */
  transferKB: number;
  /** Their decoded size, in KB. */
  decodedKB: number;
  /** How they were encoded (`br`, `gzip`, `identity`) and how many of each. */
  encodings: Record<string, number>;
  /** The largest file: its path and wire size in KB. */
  largest: { path: string; transferKB: number } | null;
  /** Every file with its wire size in KB, largest first, to tell which part grew. */
  byFile: Array<{ path: string; transferKB: number }>;
}

export interface WebSizeBench {
  signIn: PageScripts;
  workspaceHome: PageScripts;
  /** Script files from plugin remotes (`/plugins/…`) among the home's. */
  homePluginFiles: number;
}

const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Opens `path` on a page and sums the scripts it loads until `ready` and a quiet network. */
async function scriptsOf(
  page: Page,
  url: string,
  path: string,
  ready: (p: Page) => Promise<unknown>,
): Promise<{ totals: PageScripts; paths: string[] }> {
  const seen: Array<{ path: string; transfer: number; decoded: number; encoding: string }> = [];
  const pending: Array<Promise<void>> = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const [sizes, body] = await Promise.all([request.sizes(), response.body()]);
        const encoding = (await response.headerValue('content-encoding')) ?? 'identity';
        seen.push({
          path: new URL(response.url()).pathname,
          transfer: sizes.responseBodySize,
          decoded: body.length,
          encoding,
        });
      })(),
    );
  });
  await page.goto(`${url}${path}`);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  const largest = [...seen].sort((a, b) => b.transfer - a.transfer)[0];
  const encodings: Record<string, number> = {};
  for (const s of seen) encodings[s.encoding] = (encodings[s.encoding] ?? 0) + 1;
  return {
    totals: {
      files: seen.length,
      transferKB: round(seen.reduce((n, s) => n + s.transfer, 0) / 1000),
      decodedKB: round(seen.reduce((n, s) => n + s.decoded, 0) / 1000),
      encodings,
      largest: largest ? { path: largest.path, transferKB: round(largest.transfer / 1000) } : null,
      byFile: [...seen]
        .sort((a, b) => b.transfer - a.transfer)
        .map((s) => ({ path: s.path, transferKB: round(s.transfer / 1000) })),
    },
    paths: seen.map((s) => s.path),
  };
}

/**
 * Measures the sign-in page signed out, then signs in as `email` (whose workspace opens at
 * `/home`) and measures the workspace home opened afresh with that session.
 */
export async function benchWebSize(opts: {
  url: string;
  email: string;
  password: string;
  log(line: string): void;
}): Promise<WebSizeBench> {
  const { url, log } = opts;
  const browser: Browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
  try {
    log('web size: scripts of the sign-in page and the workspace home ...');
    const context = await browser.newContext();
    const signInPage = await context.newPage();
    const signIn = await scriptsOf(signInPage, url, '/auth/login', (p) =>
      p.getByRole('button', { name: 'Sign in', exact: true }).waitFor(),
    );
    await signInPage.getByRole('textbox', { name: 'Email', exact: true }).fill(opts.email);
    await signInPage.getByRole('textbox', { name: 'Password', exact: true }).fill(opts.password);
    await signInPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInPage.waitForURL(/\/home$/);
    // A new tab of the signed-in browser with its cache off: the home as a returning person's
    // first visit after a release loads it.
    const homePage = await context.newPage();
    await homePage.route('**/*', (route) => route.continue()); // routing turns the HTTP cache off
    // Ready when the greeting and the research module's card (a lazy part in the home's slot) show.
    const home = await scriptsOf(homePage, url, '/home', async (p) => {
      await p.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening)/ }).waitFor();
      await p.getByRole('heading', { level: 2, name: 'Recent research' }).waitFor();
    });
    await context.close();
    return {
      signIn: signIn.totals,
      workspaceHome: home.totals,
      homePluginFiles: home.paths.filter((p) => p.startsWith('/plugins/')).length,
    };
  } finally {
    await browser.close();
  }
}

export function describeWebSize(r: WebSizeBench): string[] {
  const line = (label: string, s: PageScripts) =>
    `  ${label.padEnd(16)} ${String(s.files).padStart(3)} files, ${String(s.transferKB).padStart(7)} KB sent (${s.decodedKB} KB decoded; ${Object.entries(
      s.encodings,
    )
      .map(([e, n]) => `${n} ${e}`)
      .join(', ')}), largest ${s.largest ? `${s.largest.transferKB} KB ${s.largest.path}` : 'none'}`;
  return [
    'Web app initial JavaScript (Chromium, empty cache, until the network is quiet)',
    line('sign-in page', r.signIn),
    line('workspace home', r.workspaceHome),
    `  plugin remote files on the home: ${r.homePluginFiles} (aim: home <= 170 KB sent)`,
  ];
}

/** Run alone: a Fieldbook of its own with one person and a workspace with Slack installed. */
async function main(): Promise<void> {
  const { BENCH_SLACK_ENV } = await import('./webhooks.ts');
  await runAlone(
    'web-size',
    async ({ url, account, token, log }) => {
      const { createWorkspace } = await graphql<{ createWorkspace: { workspace: { id: string } } }>(
        url,
        'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
        { input: { method: 'AUTH0', teamName: 'Web size bench' } },
        token,
      );
      const workspaceId = createWorkspace.workspace.id;
      const { createProject } = await graphql<{ createProject: { id: string } }>(
        url,
        'mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }',
        { i: { title: 'Inbox' } },
        token,
        workspaceId,
      );
      await graphql(
        url,
        'mutation($p: String!) { installPlugin(pluginId: "slack", settings: [{ key: "projectId", text: $p }]) { id } }',
        { p: createProject.id },
        token,
        workspaceId,
      );
      const result = await benchWebSize({ url, email: account.email, password: account.password, log });
      return [describeWebSize(result).join('\n'), JSON.stringify(result, null, 2)];
    },
    { env: { ...BENCH_SLACK_ENV, WEB_DIST_DIR: process.env.WEB_DIST_DIR } },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
