/**
 * `npm run bench`: cold and warm start, HTTP throughput (bare Koa vs Fieldbook vs GraphQL) and
 * sign-in latency. Prints a table and writes bench/results.json. Parts that need something not
 * available yet (sign-up, sign-in) are skipped with the reason in `notes`.
 * BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 50) tune the load runs.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/src/config.ts';
import { discoverModules } from '../core/src/kernel/discover.ts';
import type { Mailer, MailMessage } from '../core/src/email/mailer.ts';
import { createLogger } from '../core/src/logger.ts';
import { createFieldbook } from '../core/src/server.ts';
import { timeStart, type StartPhases } from './cold-start.ts';
import { measure, startBareKoa, type LoadResult } from './load.ts';
import { benchNoteListLoad, describeNoteListLoad, type NoteListLoadResult } from './note-list-load.ts';
import { benchResearch, type ResearchResults } from './research.ts';
import { benchSearch, searchTable, type ReindexResult, type SearchShapeResult } from './search.ts';
import { aiTable, benchAi, type AiBench } from './ai.ts';
import { benchMcp, mcpTable, type McpBench } from './mcp.ts';
import { benchQuotes, quotesLines, type QuoteEvaluation } from './quotes.ts';
import { startFakeOpenAI } from '../tests/support/openai-fake.ts';
import { benchRemoteLoad, type RemoteLoadBench } from './remote-load.ts';
import { benchSandbox, type SandboxBench } from './sandbox.ts';
import {
  automationLines,
  benchAutomation,
  benchSlackAutomation,
  slackAutomationLines,
  type AutomationBench,
  type SlackAutomationBench,
} from './automation.ts';
import { benchChannels, channelsLines, type ChannelsBench } from './channels.ts';
import { benchThemes, themesTable, type ThemeBench } from './themes.ts';
import { benchNotificationFanout, notificationFanoutLines, type NotificationFanoutBench } from './notifications.ts';
import { benchWebSize, describeWebSize, type WebSizeBench } from './web-size.ts';
import { benchViewTable, describeViewTable, type ViewTableBench } from './views.ts';
import { BENCH_SLACK_ENV, benchWebhooks, type WebhookBench } from './webhooks.ts';
import { startFakeSlack } from '../plugins/slack/testing/fake-slack.ts';
import { freePort, graphql, percentile, round, signUpResearcher } from './support.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SIGN_INS = 20;
const SIGN_IN =
  'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }';
const root = join(import.meta.dirname, '..');

interface Results {
  takenAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string };
  startup: { firstStartMs: number; warmStartMs: number; warmStartPhases: StartPhases | null } | null;
  http: {
    connections: number;
    seconds: number;
    runs: LoadResult[];
    graphqlToBareRatio: number | null;
    graphqlToBarePostRatio: number | null;
    graphqlOperation: string;
  } | null;
  signIn: { count: number; p50Ms: number; p95Ms: number } | null;
  noteListLoad: NoteListLoadResult | null;
  research: ResearchResults | null;
  search: SearchShapeResult[] | null;
  searchReindex: ReindexResult | null;
  ai: AiBench | null;
  quotes: QuoteEvaluation | null;
  mcp: McpBench | null;
  webhooks: WebhookBench | null;
  remoteLoad: RemoteLoadBench | null;
  webSize: WebSizeBench | null;
  viewTable: ViewTableBench | null;
  sandbox: SandboxBench | null;
  automation: AutomationBench | null;
  themes: ThemeBench | null;
  notificationFanout: NotificationFanoutBench | null;
  slackAutomation: SlackAutomationBench | null;
  channels: ChannelsBench | null;
  notes: string[];
}

const results: Results = {
  takenAt: new Date().toISOString(),
  machine: {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
  },
  startup: null,
  http: null,
  signIn: null,
  noteListLoad: null,
  research: null,
  search: null,
  searchReindex: null,
  ai: null,
  quotes: null,
  mcp: null,
  webhooks: null,
  remoteLoad: null,
  webSize: null,
  viewTable: null,
  sandbox: null,
  automation: null,
  themes: null,
  notificationFanout: null,
  slackAutomation: null,
  channels: null,
  notes: [],
};

const log = (line: string) => process.stderr.write(`${line}\n`);

// The bench signs up like a person would, so it reads the confirmation link from the mail.
const mailbox: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mailbox.push(message) };

// The embedded PostgreSQL runs as the `postgres` user when we are root, so the folder must be
// readable by it (not under /root).
const dataDir = mkdtempSync(join(tmpdir(), 'fieldbook-bench-'));
chmodSync(dataDir, 0o755);
const pgPort = await freePort();

try {
  log('start-up: first start (creates the cluster and migrates) ...');
  const first = await timeStart(dataDir, pgPort);
  log('start-up: warm start ...');
  const warm = await timeStart(dataDir, pgPort);
  results.startup = {
    firstStartMs: Math.round(first.ms),
    warmStartMs: Math.round(warm.ms),
    warmStartPhases: warm.phases,
  };

  // The Slack plugin, configured against a local Slack (it answers the shortcuts' response URLs).
  const slack = await startFakeSlack({
    clientId: BENCH_SLACK_ENV.SLACK_CLIENT_ID,
    clientSecret: BENCH_SLACK_ENV.SLACK_CLIENT_SECRET,
    channels: [{ id: 'CBENCH', name: 'bench' }],
  });
  // A local OpenAI-compatible server answering at once, so the AI bench measures Fieldbook's part.
  const aiFake = await startFakeOpenAI();
  const config = loadConfig({
    FIELDBOOK_DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'warn',
    OPENAI_BASE_URL: aiFake.url,
    OPENAI_API_KEY: 'test-key',
    OPENAI_CHAT_MODEL: 'fake-chat',
    ...BENCH_SLACK_ENV,
    SLACK_API_URL: slack.apiUrl,
    SLACK_AUTHORIZE_URL: slack.authorizeUrl,
  });
  const fieldbook = await createFieldbook({
    config,
    logger: createLogger('warn'),
    modules: await discoverModules(root),
    mailer,
  });
  const url = await fieldbook.listen(0, '127.0.0.1');
  const bare = await startBareKoa();
  try {
    const account = await signUpAndIn(url);
    const graphqlTarget = await chooseGraphqlTarget(url, account?.token);

    log(`HTTP: ${connections} connections, ${seconds} s per run ...`);
    const load = { connections, seconds };
    const runs = [
      await measure({ name: 'bare Koa route', url: bare.url }, load),
      await measure(
        {
          name: 'bare Koa POST (reads JSON)',
          url: bare.url,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: graphqlTarget.query }),
        },
        load,
      ),
      await measure({ name: 'Fieldbook GET /ping', url: `${url}/ping` }, load),
      // Anonymous and without a database query: what GraphQL itself costs, beside the signed-in query.
      await measure(
        {
          name: 'GraphQL { release } (anonymous)',
          url: `${url}/api/graphql`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ release }' }),
        },
        load,
      ),
      await measure(
        {
          name: `GraphQL ${graphqlTarget.label}`,
          url: `${url}/api/graphql`,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...graphqlTarget.headers },
          body: JSON.stringify({ query: graphqlTarget.query }),
        },
        load,
      ),
    ];
    for (const r of runs) {
      if (r.non2xx || r.errors)
        results.notes.push(`${r.name}: ${r.non2xx} non-2xx responses and ${r.errors} errors during the run.`);
    }
    const bareRate = runs[0]!.reqPerSec;
    results.http = {
      ...load,
      runs,
      graphqlOperation: graphqlTarget.query,
      graphqlToBareRatio: bareRate ? round(runs.at(-1)!.reqPerSec / bareRate, 2) : null,
      graphqlToBarePostRatio: runs[1]!.reqPerSec ? round(runs.at(-1)!.reqPerSec / runs[1]!.reqPerSec, 2) : null,
    };

    if (account) {
      log(`sign-in: ${SIGN_INS} signIn mutations ...`);
      const times: number[] = [];
      for (let i = 0; i < SIGN_INS; i++) {
        const t = performance.now();
        await graphql(url, SIGN_IN, { email: account.email, password: account.password });
        times.push(performance.now() - t);
      }
      results.signIn = { count: SIGN_INS, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) };

      const me = await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, account.token);
      results.noteListLoad = await benchNoteListLoad({
        url,
        owner: fieldbook.db.owner,
        token: account.token,
        userId: me.me.id,
        seconds,
        log,
      });

      // Plugins: webhook intake through the Slack plugin, and what one plugin slot costs a page.
      const created = await graphql<{ createWorkspace: { workspace: { id: string } } }>(
        url,
        'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
        { input: { method: 'AUTH0', teamName: `Plugin bench ${Date.now().toString(36)}` } },
        account.token,
      );
      const pluginWorkspace = created.createWorkspace.workspace.id;
      results.webhooks = await benchWebhooks({
        url,
        owner: fieldbook.db.owner,
        token: account.token,
        workspaceId: pluginWorkspace,
        responseUrl: slack.responseUrl(),
        log,
      });
      results.remoteLoad = await benchRemoteLoad({
        url,
        token: account.token,
        workspaceId: pluginWorkspace,
        email: account.email,
        password: account.password,
        projectId: results.webhooks.projectId,
        log,
      }).catch((err: unknown) => {
        results.notes.push(`remote load not measured: ${(err as Error).message}`);
        return null;
      });
      // Slack is installed in that workspace, so the home shows whether plugin web parts load there.
      results.webSize = await benchWebSize({ url, email: account.email, password: account.password, log }).catch(
        (err: unknown) => {
          results.notes.push(`web app size not measured: ${(err as Error).message}`);
          return null;
        },
      );
      // A person of their own, so the browser opens the view's workspace and no other.
      results.viewTable = await signUpResearcher(url, mailbox, 'bench-views')
        .then(async (viewer) => {
          const id = (await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, viewer.token)).me.id;
          return benchViewTable({ url, owner: fieldbook.db.owner, ...viewer, userId: id, log });
        })
        .catch((err: unknown) => {
          results.notes.push(`project table view not measured: ${(err as Error).message}`);
          return null;
        });

      results.automation = await benchAutomation({ fieldbook, url, token: account.token, log }).catch(
        (err: unknown) => {
          results.notes.push(`automation not measured: ${(err as Error).message}`);
          return null;
        },
      );
      results.notificationFanout = await benchNotificationFanout({ fieldbook, url, token: account.token, log }).catch(
        (err: unknown) => {
          results.notes.push(`notification fan-out not measured: ${(err as Error).message}`);
          return null;
        },
      );
      // Slack is connected in the plugin workspace (the webhook bench did it): a note to its message.
      results.slackAutomation = await benchSlackAutomation({
        url,
        token: account.token,
        workspaceId: pluginWorkspace,
        projectId: results.webhooks.projectId,
        posted: () => slack.requestsTo('chat.postMessage').length,
        log,
      }).catch((err: unknown) => {
        results.notes.push(`automation to Slack not measured: ${(err as Error).message}`);
        return null;
      });
      results.quotes = await benchQuotes({ url, mailbox, fake: aiFake, log }).catch((err: unknown) => {
        results.notes.push(`quote verification not measured: ${(err as Error).message}`);
        return null;
      });
      results.channels = await benchChannels({ url, token: account.token, owner: fieldbook.db.owner, log }).catch(
        (err: unknown) => {
          results.notes.push(`channels not measured: ${(err as Error).message}`);
          return null;
        },
      );

      const scale = Number(process.env.BENCH_RESEARCH_SCALE ?? 1);
      if (scale > 0) {
        results.research = await benchResearch({
          owner: fieldbook.db.owner,
          url,
          token: account.token,
          userId: me.me.id,
          scale,
          log,
        });
        const searched = await benchSearch({
          owner: fieldbook.db.owner,
          app: fieldbook.db.app,
          url,
          token: account.token,
          workspaceId: results.research.workspaceId,
          log,
        });
        results.search = searched.shapes;
        results.searchReindex = searched.reindex;
        results.ai = await benchAi({
          app: fieldbook.db.app,
          owner: fieldbook.db.owner,
          config,
          url,
          token: account.token,
          workspaceId: results.research.workspaceId,
          fake: aiFake,
          log,
        }).catch((err: unknown) => {
          results.notes.push(`AI not measured: ${(err as Error).message}`);
          return null;
        });
        results.mcp = await benchMcp({
          url,
          token: account.token,
          workspaceId: results.research.workspaceId,
          log,
        }).catch((err: unknown) => {
          results.notes.push(`MCP not measured: ${(err as Error).message}`);
          return null;
        });
      }
    }
  } finally {
    await bare.close();
    await fieldbook.close();
    await slack.close();
    await aiFake.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/** A person to sign in as, made through the public API; null (with a note) if that fails. */
async function signUpAndIn(url: string): Promise<{ email: string; password: string; token: string } | null> {
  const email = `bench-${Date.now()}@example.com`;
  const password = 'Bench-password-2026!';
  try {
    await graphql(url, 'mutation ($input: SignUpInput!) { signUp(input: $input) { user { id } } }', {
      input: { email, password, name: 'Bench Researcher' },
    });
  } catch (err) {
    results.notes.push(`sign-up is not available yet (${(err as Error).message}): no signed-in benchmarks.`);
    return null;
  }
  const link = mailbox
    .filter((m) => m.to === email)
    .at(-1)
    ?.text.match(/token=([\w.~-]+)/)?.[1];
  if (link) {
    await graphql(
      url,
      'mutation ($token: String!) { confirmEmail(input: { method: EMAIL, token: $token }) { accessToken } }',
      {
        token: decodeURIComponent(link),
      },
    ).catch((err: Error) => results.notes.push(`confirming the email failed (${err.message}).`));
  }
  try {
    const data = await graphql<{ signIn: { accessToken: string } }>(url, SIGN_IN, { email, password });
    return { email, password, token: data.signIn.accessToken };
  } catch (err) {
    results.notes.push(`sign-in is not available yet (${(err as Error).message}): no signed-in benchmarks.`);
    return null;
  }
}

/** The authenticated `me` query when a token works; else `{ release }`, noted as such. */
async function chooseGraphqlTarget(
  url: string,
  token: string | undefined,
): Promise<{ label: string; query: string; headers: Record<string, string> }> {
  if (token) {
    try {
      const data = await graphql<{ me: { id: string } | null }>(url, '{ me { id email name } }', {}, token);
      if (data.me?.id)
        return {
          label: 'me (signed in)',
          query: '{ me { id email name } }',
          headers: { authorization: `Bearer ${token}` },
        };
      results.notes.push('`me` answered null for a signed-in token: benchmarked `{ release }` instead.');
    } catch (err) {
      results.notes.push(`\`me\` failed (${(err as Error).message}): benchmarked \`{ release }\` instead.`);
    }
  } else {
    results.notes.push('no signed-in user: benchmarked the unauthenticated `{ release }` query instead of `me`.');
  }
  return { label: '{ release }', query: '{ release }', headers: {} };
}

log("plugin sandbox: the same calls in-process and in an isolate, and a plugin's load ...");
results.sandbox = await benchSandbox().catch((err: unknown) => {
  results.notes.push(`plugin sandbox not measured: ${(err as Error).message}`);
  return null;
});

log('themes: clustering quality on BANKING77 beside TF-IDF + k-means, and 100,000 points offline ...');
try {
  results.themes = benchThemes();
} catch (err) {
  results.notes.push(`themes not measured: ${(err as Error).message}`);
}

writeFileSync(join(import.meta.dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const m = results.machine;
const lines = ['', `Fieldbook benchmarks (${m.cpus} CPUs, ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node})`, ''];
if (results.startup) {
  lines.push('Start-up (spawn to first 200 from /ping)');
  lines.push(`  first start (new cluster + migrations)  ${results.startup.firstStartMs} ms`);
  lines.push(`  warm start                              ${results.startup.warmStartMs} ms`);
  const phases = results.startup.warmStartPhases;
  if (phases)
    lines.push(
      `  warm start, where the time went (ms): ${Object.entries(phases)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  lines.push('');
}
if (results.http) {
  lines.push(`HTTP throughput (${results.http.connections} connections, ${results.http.seconds} s each)`);
  lines.push(`  ${'target'.padEnd(30)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  for (const r of results.http.runs) {
    lines.push(
      `  ${r.name.padEnd(30)} ${String(r.reqPerSec).padStart(8)} ${String(r.p50Ms).padStart(8)} ${String(r.p99Ms).padStart(8)}`,
    );
  }
  lines.push(`  signed-in GraphQL / bare Koa GET: ${results.http.graphqlToBareRatio ?? 'n/a'} (aim: >= 0.33)`);
  lines.push(
    `  signed-in GraphQL / bare Koa POST reading the same JSON body: ${results.http.graphqlToBarePostRatio ?? 'n/a'}`,
  );
  lines.push('');
}
if (results.signIn) {
  lines.push(`Sign-in (${results.signIn.count} signIn mutations, one after another)`);
  lines.push(`  p50 ${results.signIn.p50Ms} ms, p95 ${results.signIn.p95Ms} ms`);
  lines.push('');
}
if (results.noteListLoad) {
  lines.push(
    `Project page note list under load (${results.noteListLoad.connections} connections, ${results.noteListLoad.seconds} s)`,
  );
  lines.push(describeNoteListLoad(results.noteListLoad));
  lines.push('');
}
if (results.research) {
  const r = results.research;
  lines.push(
    `Research repository (scale ${r.scale}: ${r.projects} projects, ${r.notes} notes, ${r.highlights} highlights)`,
  );
  lines.push(`  generator: ${r.insertSeconds} s, ${r.insertRowsPerSecond} rows/s`);
  lines.push(
    `  project page note list, first page (${r.noteList.requests} requests): p50 ${r.noteList.p50Ms} ms, p95 ${r.noteList.p95Ms} ms (aim: p95 < 50 ms)`,
  );
  lines.push(
    `  export of the largest project (${r.largestProjectNotes} notes): ${r.exportSeconds === null ? 'n/a' : `${r.exportSeconds} s`}`,
  );
  lines.push('');
}
if (results.search) {
  lines.push(
    `Search, PostgreSQL engine, on that workspace (p50 / p95 ms; API beside hand-written SQL; aim: p95 < 50 ms, API within 1.5x)`,
  );
  lines.push(...searchTable(results.search));
  lines.push('');
}
if (results.ai) {
  lines.push(...aiTable(results.ai));
  lines.push('');
}
if (results.quotes) {
  lines.push(...quotesLines(results.quotes));
  lines.push('');
}
if (results.mcp) {
  lines.push(...mcpTable(results.mcp));
  lines.push('');
}
if (results.searchReindex) {
  const r = results.searchReindex;
  lines.push('Search index, full reindex of that workspace (Typesense engine)');
  lines.push(`  ${r.items} items in ${r.seconds} s: ${r.itemsPerSecond} items/s`);
  lines.push(`  written to the ${r.server}`);
  lines.push('');
}
if (results.webhooks) {
  const w = results.webhooks;
  lines.push(
    `Webhook intake, Slack plugin (signed shortcuts: verify, store, enqueue; ${w.connections} connections, ${w.seconds} s)`,
  );
  lines.push(
    `  ${w.intake.reqPerSec} deliveries/s, p50 ${w.intake.p50Ms} ms, p99 ${w.intake.p99Ms} ms (${w.intake.sent} sent, ${w.intake.non2xx} non-2xx)`,
  );
  lines.push(
    `  backlog: ${w.backlog.events} notes made, queue empty ${w.backlog.drainSeconds} s after the load ended (${w.backlog.notesPerSec} notes/s overall)`,
  );
  lines.push(
    `  workers held: intake ${w.heldIntake.reqPerSec} deliveries/s, p99 ${w.heldIntake.p99Ms} ms; its backlog of ${w.heldBacklog.events} drained at ${w.heldBacklog.notesPerSec} notes/s`,
  );
  lines.push(`  one delivery to a readable note: p50 ${w.intakeToNote.p50Ms} ms, p95 ${w.intakeToNote.p95Ms} ms`);
  lines.push('');
}
if (results.remoteLoad) {
  const r = results.remoteLoad;
  lines.push(`Plugin web part (project extensions page, ${r.runs} fresh page loads each)`);
  lines.push(`  slot empty        p50 ${r.emptySlotMs.p50} ms, p95 ${r.emptySlotMs.p95} ms`);
  lines.push(`  Slack panel shown p50 ${r.withSlotMs.p50} ms, p95 ${r.withSlotMs.p95} ms (+${r.extraMs} ms)`);
  lines.push('');
}
if (results.viewTable) lines.push(...describeViewTable(results.viewTable));
if (results.webSize) {
  lines.push(...describeWebSize(results.webSize));
  lines.push('');
}
if (results.sandbox) {
  const s = results.sandbox;
  const ratio = (c: SandboxBench['action']) => round(c.sandboxUs.p50 / c.inProcessUs.p50, 0);
  lines.push(`Plugin sandbox (${s.calls} calls each, in-process vs isolate, p50)`);
  lines.push(
    `  action  ${s.action.inProcessUs.p50} vs ${s.action.sandboxUs.p50} µs (${ratio(s.action)}×, +${s.action.overheadUs} µs)`,
  );
  lines.push(
    `  webhook ${s.webhook.inProcessUs.p50} vs ${s.webhook.sandboxUs.p50} µs (${ratio(s.webhook)}×, +${s.webhook.overheadUs} µs)`,
  );
  lines.push(
    `  installation webhook ${s.installationWebhook.inProcessUs.p50} vs ${s.installationWebhook.sandboxUs.p50} µs (${ratio(s.installationWebhook)}×, +${s.installationWebhook.overheadUs} µs)`,
  );
  lines.push(`  load ${s.loadMs} ms, ${s.warmLoadMs} ms with its bundle kept; isolate heap ${s.heapMb} MB`);
  lines.push('');
}
if (results.automation) {
  lines.push(...automationLines(results.automation));
  lines.push('');
}
if (results.themes) {
  lines.push(...themesTable(results.themes));
  lines.push('');
}
if (results.notificationFanout) {
  lines.push(...notificationFanoutLines(results.notificationFanout));
  lines.push('');
}
if (results.slackAutomation) {
  lines.push(...slackAutomationLines(results.slackAutomation));
  lines.push('');
}
if (results.channels) {
  lines.push(...channelsLines(results.channels));
  lines.push('');
}
for (const note of results.notes) lines.push(`note: ${note}`);
lines.push('Written to bench/results.json');
console.log(lines.join('\n'));
