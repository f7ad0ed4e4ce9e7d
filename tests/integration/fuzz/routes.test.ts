import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import agents from '../../../modules/agents/src/index.ts';
import ai from '../../../modules/ai/src/index.ts';
import channels from '../../../modules/channels/src/index.ts';
import mcp from '../../../modules/mcp/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../../support/factories.ts';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { verdictOf } from './verdict.ts';
import { workspaceFingerprint } from './fingerprint.ts';
import {
  agentRequestArb,
  channelRequestArb,
  mcpRequestArb,
  type JsonSchema,
  type RouteRequest,
  type RoutePool,
} from './route-arbitraries.ts';

/**
 * Property: no request to the REST routes (channels' push, CSV preview and import; agents'
 * message and confirm) or to the MCP endpoint (JSON-RPC: tools/list, tools/call with generated
 * arguments, batches), however malformed, is answered with an internal error; a refused one is a
 * clear client error (a 4xx with a message, a JSON-RPC error, a tool error) and changes nothing in
 * the workspace. Seeded like the GraphQL fuzz: FUZZ_SEED and FUZZ_RUNS replay or widen it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
/** Requests per route family for each of RUNS: the MCP endpoint's tools are many, so it gets more. */
const PER_RUN = { channels: 12, agents: 8, mcp: 15 };
/** HTTP requests per token: batches of up to 4 (11 at most, refused) keep each under its 120 a minute. */
const MCP_PER_TOKEN = 25;
/** Each family's time: its requests are several per run, and a busy machine answers them slowly. */
const TIME_LIMIT = Math.max(240_000, RUNS * 60_000);

let server: TestServer;
let mail: TestMailServer;
let model: FakeOpenAI;
let ws: WorkspaceFixture;
/** Personal API tokens for /mcp, used in turn: each may make 120 requests a minute, a batch's each counted. */
const tokens: string[] = [];
const pool: { channelIds: string[]; conversationIds: string[]; ids: string[]; tools: RoutePool['tools'] } = {
  channelIds: [],
  conversationIds: [],
  ids: [],
  tools: [],
};

beforeAll(async () => {
  mail = await startMailServer();
  model = await startFakeOpenAI();
  server = await startTestServer(
    { smtpUrl: mail.url, ...aiConfig(model, { maxRetries: 0 }) },
    { modules: [research, search, channels, ai, agents, mcp], discoverPlugins: false },
  );
  ws = await createWorkspaceWithAdmin(server, mail);
  await seedWorkspace(gqlAs(server, ws.admin.accessToken, ws.id));
  const listed = await send({
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  pool.tools = (
    (await listed.json()) as { result: { tools: Array<{ name: string; inputSchema: JsonSchema }> } }
  ).result.tools;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await mail?.close();
  await model?.close();
});

/** Rows to point at: channels, an agent's conversations, a project and its note; write tools allowed over MCP. */
async function seedWorkspace(admin: ReturnType<typeof gqlAs>): Promise<void> {
  const data = async <T>(query: string, variables?: Record<string, unknown>): Promise<T> => {
    const res = await admin<T>(query, variables);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data!;
  };
  for (const name of ['Support tickets', 'Survey']) {
    const { createChannel } = await data<{ createChannel: { id: string } }>(
      'mutation($name: String!) { createChannel(input: { name: $name }) { id } }',
      { name },
    );
    pool.channelIds.push(createChannel.id);
  }
  const { createProject } = await data<{ createProject: { id: string } }>(
    'mutation { createProject(input: { title: "Fuzzed study" }) { id } }',
  );
  const { createNote } = await data<{ createNote: { id: string } }>(
    'mutation($p: ID!) { createNote(input: { projectId: $p, title: "Interview" }) { id } }',
    { p: createProject.id },
  );
  const { createAgent } = await data<{ createAgent: { id: string } }>(
    'mutation { createAgent(input: { name: "Fuzzed agent", tools: ["keyword_search", "get_note"] }) { id } }',
  );
  for (let i = 0; i < 2; i++) {
    const { startConversation } = await data<{ startConversation: { id: string } }>(
      'mutation($a: ID!) { startConversation(input: { agentId: $a }) { id } }',
      { a: createAgent.id },
    );
    pool.conversationIds.push(startConversation.id);
  }
  pool.ids.push(createProject.id, createNote.id, createAgent.id, ...pool.channelIds, ws.id);
  await data('mutation { updateMcpSettings(input: { allowWrites: true }) { allowWrites } }');
  for (let i = 0; i < Math.ceil((RUNS * PER_RUN.mcp + 1) / MCP_PER_TOKEN); i++) {
    const { createApiToken } = await data<{ createApiToken: { token: string } }>(
      'mutation($n: String!) { createApiToken(name: $n) { token } }',
      { n: `Fuzz ${i}` },
    );
    tokens.push(createApiToken.token);
  }
}

let mcpRequests = 0;

/** One request as the admin (an API token for /mcp); a connection closed as idle just as it was reused is tried once more. */
async function send(request: RouteRequest): Promise<Response> {
  const authorization =
    request.path === '/mcp'
      ? `Bearer ${tokens[Math.floor(mcpRequests++ / MCP_PER_TOKEN) % tokens.length]}`
      : `Bearer ${ws.admin.accessToken}`;
  const go = () =>
    fetch(`${server.url}${request.path}`, {
      method: request.method,
      headers: { authorization, 'x-fieldbook-workspace': ws.id, ...request.headers },
      body: typeof request.body === 'string' || !request.body ? request.body : Uint8Array.from(request.body),
    });
  return go().catch(() =>
    go().catch((err: Error) => {
      throw new Error(`${err.message}: ${String(err.cause)}`);
    }),
  );
}

/** Waits for the CSV imports a request queued, so what they write is not taken for a later request's change. */
async function importsSettled(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const busy = await server.fieldbook.db
      .owner('channel_imports')
      .where({ workspace_id: ws.id })
      .whereIn('status', ['QUEUED', 'RUNNING'])
      .first('id');
    if (!busy) return;
    if (Date.now() > deadline) throw new Error('a CSV import was still running after 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `arb`'s requests; the failures, each with its replay, and how the requests were answered. */
async function fuzz(family: keyof typeof PER_RUN, arb: fc.Arbitrary<RouteRequest>): Promise<string[]> {
  const tally = new Map<string, number>();
  const result = await fc.check(
    fc.asyncProperty(arb, async (request) => {
      const before = await workspaceFingerprint(server, ws.id);
      const res = await send(request);
      const text = await res.text();
      const verdict = verdictOf(request, res, text);
      const route = `${/\/([a-z]+)(\?|$)/.exec(request.path)?.[1] ?? request.path} ${verdict.label}`;
      tally.set(route, (tally.get(route) ?? 0) + 1);
      const where = `${request.method} ${request.path.slice(0, 120)} answered ${res.status}`;
      if (verdict.kind === 'internal') throw new Error(`${where}: ${verdict.why}: ${text.slice(0, 300)}`);
      if (verdict.kind === 'unclear') throw new Error(`${where} without a clear error: ${text.slice(0, 300)}`);
      if (verdict.kind === 'refused') {
        const after = await workspaceFingerprint(server, ws.id);
        expect(after, `${where}, refused, yet changed the workspace`).toEqual(before);
      } else {
        await importsSettled();
      }
    }),
    { seed: SEED, numRuns: RUNS * PER_RUN[family], endOnFailure: true },
  );
  console.info(family, Object.fromEntries([...tally].sort((a, b) => b[1] - a[1])));
  if (!result.failed) return [];
  const example = result.counterexample?.[0] as RouteRequest | undefined;
  const body = typeof example?.body === 'string' ? example.body : String(example?.body?.toString('hex'));
  return [
    `${family} (seed ${SEED}, path ${result.counterexamplePath}): ${String(result.errorInstance).slice(0, 600)}\n  request: ${example?.method} ${example?.path.slice(0, 200)} ${JSON.stringify(example?.headers)}\n  body: ${body.slice(0, 400)}`,
  ];
}

describe('REST routes and MCP refuse malformed requests with a clear error and change nothing', () => {
  it('has channels, conversations and MCP tools to point at', () => {
    expect(pool.channelIds).toHaveLength(2);
    expect(pool.conversationIds).toHaveLength(2);
    expect(pool.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_note', 'create_document']));
    console.info(`fuzzing the REST routes and ${pool.tools.length} MCP tools, seed ${SEED} (FUZZ_SEED to change)`);
  });

  it(
    'channels: POST /api/channels/{id}/datapoints, …/csv/preview and …/imports',
    async () => {
      const failures = await fuzz('channels', channelRequestArb(pool));
      expect(failures, failures.join('\n')).toEqual([]);
    },
    TIME_LIMIT,
  );

  it(
    'agents: POST /api/agents/conversations/{id}/messages and …/confirm',
    async () => {
      const failures = await fuzz('agents', agentRequestArb(pool));
      expect(failures, failures.join('\n')).toEqual([]);
    },
    TIME_LIMIT,
  );

  it(
    'MCP: POST /mcp with tools/list, tools/call and batches',
    async () => {
      const failures = await fuzz('mcp', mcpRequestArb(pool));
      expect(failures, failures.join('\n')).toEqual([]);
    },
    TIME_LIMIT,
  );
});
