/**
 * A project's table view over many notes (10,000 unless BENCH_VIEW_ROWS says otherwise), as a
 * person opens it in Chromium: the time from navigation to the first rows drawn and to every row
 * loaded, then a steady scroll through the table measured two ways: frame times from
 * requestAnimationFrame in the page, and Chromium's own Performance metrics (layout, style and
 * script time) over CDP before and after. The rows drawn in the page show the virtualisation.
 *
 * `npm run bench` runs it after the web size benchmark. `tsx bench/views.ts` runs it alone on a
 * new embedded database in a temporary folder. Build the web app first (`npm run build:web`).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { chromium } from '@playwright/test';
import { graphql, percentile, round, runAlone } from './support.ts';

export interface ViewTableBench {
  rows: number;
  /** Navigation to the first row drawn, ms. */
  firstRowsMs: number;
  /** Navigation to every row loaded (pages of 1,000 after a first page of 200), ms. */
  allRowsMs: number;
  /** Scrolling: frames measured and their times in ms. */
  scroll: {
    frames: number;
    pixels: number;
    p50FrameMs: number;
    p95FrameMs: number;
    maxFrameMs: number;
    slowFrames: number;
  };
  /** Chromium's Performance metrics over the scroll, ms. */
  chromium: { layoutMs: number; styleMs: number; scriptMs: number; taskMs: number };
  /** Table rows in the page during the scroll (all rows would be `rows`). */
  rowsInDom: number;
  /** The same notes as a LIST view: first cards, all loaded, and a scroll. */
  list: { firstCardsMs: number; allCardsMs: number; scroll: Scroll };
  /** As a BOARD by a four-option select: first cards, and a scroll down its first column. */
  board: { firstCardsMs: number; scroll: Scroll };
}

interface Scroll {
  frames: number;
  pixels: number;
  p50FrameMs: number;
  p95FrameMs: number;
  maxFrameMs: number;
  slowFrames: number;
  chromium: { layoutMs: number; styleMs: number; scriptMs: number; taskMs: number };
  /** Cards or rows in the page at most during the scroll. */
  inDom: number;
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
const SCROLL_FRAMES = 180;
const PIXELS_PER_FRAME = 240;

export async function benchViewTable(opts: {
  url: string;
  owner: Knex;
  email: string;
  password: string;
  token: string;
  userId: string;
  rows?: number;
  log(line: string): void;
}): Promise<ViewTableBench> {
  const rows = opts.rows ?? Number(process.env.BENCH_VIEW_ROWS ?? 10_000);
  const { url, log } = opts;
  const ws = await graphql<{ createWorkspace: { workspace: { id: string } } }>(
    url,
    'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
    { input: { method: 'AUTH0', teamName: `Views bench ${Date.now().toString(36)}` } },
    opts.token,
  );
  const workspaceId = ws.createWorkspace.workspace.id;
  const call = <T>(query: string, variables: Record<string, unknown>) =>
    graphql<T>(url, query, variables, opts.token, workspaceId);
  const projectId = (
    await call<{ createProject: { id: string } }>(
      'mutation ($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Support calls' } },
    )
  ).createProject.id;
  const field = (
    await call<{ createField: { id: string } }>(
      'mutation ($input: CreateFieldInput!) { createField(input: $input) { id } }',
      { input: { objectType: 'NOTE', projectId, type: 'TEXT', label: 'Customer' } },
    )
  ).createField.id;
  log(`view table: ${rows.toLocaleString('en-US')} notes with a text field ...`);
  await opts.owner.raw(
    `insert into notes (workspace_id, project_id, title, content_text, rank, created_by, updated_by, created_at)
     select ?, ?, 'Support call ' || i, 'The customer asked about pricing.', i * 65536.0, ?, ?, now() - (i || ' seconds')::interval
     from generate_series(1, ?) as i`,
    [workspaceId, projectId, opts.userId, opts.userId, rows],
  );
  await opts.owner.raw(
    `insert into field_values (workspace_id, field_id, object_type, object_id, value, updated_by)
     select workspace_id, ?, 'NOTE', id, to_jsonb('Customer ' || (rank / 65536)::int), created_by from notes where project_id = ?`,
    [field, projectId],
  );
  const viewId = (
    await call<{ createProjectView: { id: string } }>(
      'mutation ($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }',
      {
        p: projectId,
        input: {
          title: 'All calls',
          layout: 'TABLE',
          objectType: 'NOTE',
          columns: [
            { field: 'Title', width: 280, sticky: true },
            { field: `field.${field}` },
            { field: 'Tags' },
            { field: 'Created' },
            { field: 'Updated' },
          ],
        },
      },
    )
  ).createProjectView.id;

  // The same notes as a list and as a board grouped by a select field of four options.
  const list = (
    await call<{ createProjectView: { id: string } }>(
      'mutation ($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }',
      { p: projectId, input: { title: 'All calls as a list', layout: 'LIST', objectType: 'NOTE' } },
    )
  ).createProjectView.id;
  const stage = (
    await call<{ createField: { id: string; options: Array<{ id: string }> } }>(
      'mutation ($input: CreateFieldInput!) { createField(input: $input) { id options { id } } }',
      {
        input: {
          objectType: 'NOTE',
          projectId,
          type: 'SELECT',
          label: 'Stage',
          maxSelectable: 1,
          options: ['New', 'Read', 'Coded', 'Done'].map((label) => ({ label })),
        },
      },
    )
  ).createField;
  await opts.owner.raw(
    `insert into field_values (workspace_id, field_id, object_type, object_id, value, updated_by)
     select workspace_id, ?, 'NOTE', id, jsonb_build_array((?::jsonb) ->> ((rank / 65536)::int % 4)), created_by from notes where project_id = ?`,
    [stage.id, JSON.stringify(stage.options.map((o) => o.id)), projectId],
  );
  const board = (
    await call<{ createProjectView: { id: string } }>(
      'mutation ($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }',
      {
        p: projectId,
        input: {
          title: 'All calls by stage',
          layout: 'BOARD',
          objectType: 'NOTE',
          group: { kind: 'SELECT', fieldId: stage.id },
        },
      },
    )
  ).createProjectView.id;

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => log(`view bench: the page failed: ${err.message}`));
    await page.goto(`${url}/auth/login`);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(opts.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(opts.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/(home|auth\/workspaces)/);
    // Open the view's workspace the way the app remembers it, then the view itself, warm (the app's code cached).
    await page.goto(`${url}/projects/${projectId}/v/${viewId}`);
    await page
      .locator('tbody tr[data-row-id]')
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (err: unknown) => {
        await page.screenshot({ path: join(tmpdir(), 'fieldbook-views-bench.png') });
        throw new Error(
          `the view did not show its rows at ${page.url()} (screenshot in ${join(tmpdir(), 'fieldbook-views-bench.png')}): ${(err as Error).message}`,
        );
      });
    await page.goto(`${url}/home`);
    await page.waitForLoadState('networkidle');

    const open = async (viewId: string, first: string, loading: RegExp) => {
      const start = Date.now();
      await page.goto(`${url}/projects/${projectId}/v/${viewId}`);
      await page.locator(first).first().waitFor({ timeout: 60_000 });
      const firstMs = Date.now() - start;
      await page.getByText(loading).waitFor({ state: 'detached', timeout: 120_000 });
      return { firstMs, allMs: Date.now() - start };
    };
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries(
        ((await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }).metrics.map(
          (m) => [m.name, m.value],
        ),
      );
    // Scrolls the element a steady amount each frame, counting what is drawn; sent as text: the
    // bench's own compiler would add helpers the page does not have.
    const scrollThrough = async (scroller: string, drawn: string): Promise<Scroll> => {
      const before = await metrics();
      const scroll = (await page.evaluate(`new Promise((resolve) => {
        const el = document.querySelector('${scroller}');
        const times = [];
        let last = performance.now();
        let inDom = 0;
        const tick = () => {
          const now = performance.now();
          times.push(now - last);
          last = now;
          inDom = Math.max(inDom, document.querySelectorAll('${drawn}').length);
          if (times.length >= ${SCROLL_FRAMES}) return resolve({ times: times.slice(1), inDom, pixels: el.scrollTop });
          el.scrollTop += ${PIXELS_PER_FRAME};
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      })`)) as { times: number[]; inDom: number; pixels: number };
      const after = await metrics();
      const delta = (name: string) => round(((after[name] ?? 0) - (before[name] ?? 0)) * 1000);
      return {
        frames: scroll.times.length,
        pixels: Math.round(scroll.pixels),
        p50FrameMs: round(percentile(scroll.times, 50)),
        p95FrameMs: round(percentile(scroll.times, 95)),
        maxFrameMs: round(Math.max(...scroll.times)),
        slowFrames: scroll.times.filter((t) => t > 50).length,
        chromium: {
          layoutMs: delta('LayoutDuration'),
          styleMs: delta('RecalcStyleDuration'),
          scriptMs: delta('ScriptDuration'),
          taskMs: delta('TaskDuration'),
        },
        inDom: scroll.inDom,
      };
    };

    log('view table: opening the view ...');
    const table = await open(viewId, 'tbody tr[data-row-id]', /Loading rows…/);
    log('view table: scrolling ...');
    const tableScroll = await scrollThrough('[data-table-scroller]', 'tbody tr[data-row-id]');
    log('view list: opening and scrolling ...');
    const listOpen = await open(list, '[data-cards-scroller] article', /Loading notes…/);
    const listScroll = await scrollThrough('[data-cards-scroller]', '[data-cards-scroller] article');
    log('view board: opening and scrolling a column ...');
    const boardOpen = await open(board, '[data-column-scroller] article', /Loading notes…/);
    const boardScroll = await scrollThrough('[data-column-scroller]', '[data-column-scroller] article');
    await context.close();
    const { inDom, chromium: cr, ...tableFrames } = tableScroll;
    return {
      rows,
      firstRowsMs: table.firstMs,
      allRowsMs: table.allMs,
      scroll: tableFrames,
      chromium: cr,
      rowsInDom: inDom,
      list: { firstCardsMs: listOpen.firstMs, allCardsMs: listOpen.allMs, scroll: listScroll },
      board: { firstCardsMs: boardOpen.firstMs, scroll: boardScroll },
    };
  } finally {
    await browser.close();
  }
}

export function describeViewTable(r: ViewTableBench): string[] {
  return [
    `Project table view, ${r.rows.toLocaleString('en-US')} notes (Chromium, warm cache)`,
    `  first rows ${r.firstRowsMs} ms, all rows ${r.allRowsMs} ms (aim: first rows <= 1,500 ms)`,
    `  scroll ${r.scroll.frames} frames over ${r.scroll.pixels.toLocaleString('en-US')} px: frame p50 ${r.scroll.p50FrameMs} ms, p95 ${r.scroll.p95FrameMs} ms, max ${r.scroll.maxFrameMs} ms, ${r.scroll.slowFrames} over 50 ms (aim: p95 <= 33 ms)`,
    `  Chromium over the scroll: layout ${r.chromium.layoutMs} ms, style ${r.chromium.styleMs} ms, script ${r.chromium.scriptMs} ms, tasks ${r.chromium.taskMs} ms; ${r.rowsInDom} rows in the page at most`,
    `  as a list: first cards ${r.list.firstCardsMs} ms, all ${r.list.allCardsMs} ms; ${describeScroll(r.list.scroll)}`,
    `  as a board (4 columns): first cards ${r.board.firstCardsMs} ms; one column ${describeScroll(r.board.scroll)}`,
  ];
}

function describeScroll(s: Scroll): string {
  return `scroll frame p50 ${s.p50FrameMs} ms, p95 ${s.p95FrameMs} ms, max ${s.maxFrameMs} ms, ${s.slowFrames} over 50 ms; script ${s.chromium.scriptMs} ms, layout ${s.chromium.layoutMs} ms; ${s.inDom} cards in the page at most`;
}

/** Run alone: a Fieldbook of its own with one person. */
async function main(): Promise<void> {
  await runAlone(
    'views',
    async ({ fieldbook, url, account, log }) => {
      const me = await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, account.token);
      const result = await benchViewTable({ url, owner: fieldbook.db.owner, ...account, userId: me.me.id, log });
      return [describeViewTable(result).join('\n'), JSON.stringify(result, null, 2)];
    },
    { env: { WEB_DIST_DIR: process.env.WEB_DIST_DIR } },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
