import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type GraphQLField, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import agents from '../../../modules/agents/src/index.ts';
import ai from '../../../modules/ai/src/index.ts';
import automation from '../../../modules/automation/src/index.ts';
import mcp from '../../../modules/mcp/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import channels from '../../../modules/channels/src/index.ts';
import dashboards from '../../../modules/dashboards/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../../support/factories.ts';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { argumentsArb, operationFor, serialize, type IdPool } from './input-arbitraries.ts';

/**
 * Property: no input, however malformed, makes any mutation or query answer INTERNAL_SERVER_ERROR.
 * Every Mutation field, and every Query field that takes arguments, of the assembled schema is
 * called as a signed-in workspace admin with arguments generated from its input types. The seed is fixed so a failure replays: set FUZZ_SEED to try
 * another, FUZZ_RUNS for more runs per mutation.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
/** Each test's time: every field is called RUNS times, and a busy machine answers slowly. */
const TIME_LIMIT = Math.max(240_000, RUNS * 60_000);

/** Mutations that end the admin's session or workspace: they would leave later runs with nothing to reach. */
const LEFT_OUT =
  /^(signOut|signOutEverywhere|deleteAccount|deleteWorkspace|leaveWorkspace|revokeSession|revokeAllSessions|changePassword|resetPassword)$/;

let server: TestServer;
let mail: TestMailServer;
let model: FakeOpenAI;
let ws: WorkspaceFixture;
let mutations: Array<GraphQLField<unknown, unknown>>;
let queries: Array<GraphQLField<unknown, unknown>>;
const pool: { ids: string[] } = { ids: [] };

beforeAll(async () => {
  mail = await startMailServer();
  // A model that answers blank: AI mutations and agents' turns get past "no model configured".
  model = await startFakeOpenAI();
  server = await startTestServer(
    { smtpUrl: mail.url, ...aiConfig(model, { maxRetries: 0 }) },
    { modules: [research, search, channels, dashboards, ai, agents, automation, mcp] },
  );
  ws = await createWorkspaceWithAdmin(server, mail);
  const admin = gqlAs(server, ws.admin.accessToken, ws.id);
  const schema = buildClientSchema((await admin<IntrospectionQuery>(getIntrospectionQuery())).data!);
  mutations = Object.values(schema.getMutationType()!.getFields()).filter((f) => !LEFT_OUT.test(f.name));
  queries = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.args.length > 0);
  await seedWorkspace(admin, pool);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await mail?.close();
  await model?.close();
});

/** A little of everything, so generated ids can point at real rows. */
async function seedWorkspace(admin: ReturnType<typeof gqlAs>, into: { ids: string[] }): Promise<void> {
  const add = (value: unknown) => {
    if (typeof value === 'string') into.ids.push(value);
  };
  const project = (
    await admin<{ createProject: { id: string } }>(
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Fuzzed study' } },
    )
  ).data?.createProject.id;
  add(project);
  const doc = {
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Setup was confusing 😀' }] }],
  };
  add(
    (
      await admin<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId: project, title: 'Interview', content: doc } },
      )
    ).data?.createNote.id,
  );
  add(
    (
      await admin<{ createInsight: { id: string } }>(
        'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
        { input: { projectId: project, title: 'Insight', content: doc } },
      )
    ).data?.createInsight.id,
  );
  add(
    (await admin<{ createFolder: { id: string } }>('mutation { createFolder(title: "Folder") { id } }')).data
      ?.createFolder.id,
  );
  add(
    (await admin<{ createChannel: { id: string } }>('mutation { createChannel(input: { name: "Channel" }) { id } }'))
      .data?.createChannel.id,
  );
  const agent = (
    await admin<{ createAgent: { id: string } }>(
      'mutation($input: CreateAgentInput!) { createAgent(input: $input) { id } }',
      { input: { name: 'Fuzzed agent', tools: ['keyword_search', 'get_note'] } },
    )
  ).data?.createAgent.id;
  add(agent);
  add(
    (
      await admin<{ startConversation: { id: string } }>(
        'mutation($input: StartConversationInput!) { startConversation(input: $input) { id } }',
        { input: { agentId: agent } },
      )
    ).data?.startConversation.id,
  );
  add(
    (
      await admin<{ createAutomation: { id: string } }>(
        'mutation($input: AutomationInput!) { createAutomation(input: $input) { id } }',
        {
          input: {
            title: 'Fuzzed automation',
            trigger: { type: 'Event', eventKey: 'manual' },
            actions: [
              { actionType: 'createNote', parameters: { projectId: project, title: 'Made' }, executionOrder: 1 },
            ],
          },
        },
      )
    ).data?.createAutomation.id,
  );
  add(ws.id);
}

/**
 * One POST as the admin. A connection the server closed as idle just as it was reused is tried
 * once more on a fresh one; a server that went down fails both times.
 */
async function post(body: string): Promise<Response> {
  const send = () =>
    fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${ws.admin.accessToken}`,
        'x-fieldbook-workspace': ws.id,
      },
      body,
    });
  return send().catch(() =>
    send().catch((err: Error) => {
      throw new Error(`${err.message}: ${String(err.cause)}`);
    }),
  );
}

describe('mutations refuse malformed input with a clear error', () => {
  it('has mutations to call, and a workspace with rows to point at', () => {
    expect(mutations.length).toBeGreaterThan(30);
    expect(pool.ids.length).toBeGreaterThanOrEqual(9);
    console.info(`fuzzing ${mutations.length} mutations, ${RUNS} runs each, seed ${SEED} (FUZZ_SEED to change)`);
  });

  it(
    'never answers INTERNAL_SERVER_ERROR',
    async () => {
      const failures = await fuzz(mutations, 'mutation');
      expect(failures, failures.join('\n')).toEqual([]);
    },
    TIME_LIMIT,
  );
});

describe('queries refuse malformed arguments with a clear error', () => {
  it('has queries with arguments to call', () => {
    expect(queries.length).toBeGreaterThan(20);
    console.info(`fuzzing ${queries.length} queries, ${RUNS} runs each, seed ${SEED} (FUZZ_SEED to change)`);
  });

  it(
    'never answers INTERNAL_SERVER_ERROR',
    async () => {
      const failures = await fuzz(queries, 'query');
      expect(failures, failures.join('\n')).toEqual([]);
    },
    TIME_LIMIT,
  );
});

/** Calls each field RUNS times with generated arguments; the failures, each with its replay. */
async function fuzz(fields: Array<GraphQLField<unknown, unknown>>, kind: 'query' | 'mutation'): Promise<string[]> {
  const failures: string[] = [];
  const tally = new Map<string, number>();
  const ids: IdPool = pool;
  for (const field of fields) {
    const query = operationFor(field, kind);
    const result = await fc.check(
      fc.asyncProperty(argumentsArb(field, ids), async (variables) => {
        const res = await post(serialize(query, variables));
        const text = await res.text();
        const code =
          /"errorCode":"([A-Z_]+)"/.exec(text)?.[1] ?? (res.status === 200 ? 'answered' : String(res.status));
        tally.set(code, (tally.get(code) ?? 0) + 1);
        const internal = res.status >= 500 || text.includes('"INTERNAL_SERVER_ERROR"');
        if (internal) throw new Error(`${field.name} answered ${res.status}: ${text.slice(0, 300)}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (result.failed) {
      const example = JSON.stringify(result.counterexample?.[0]).slice(0, 400);
      failures.push(
        `${field.name} (seed ${SEED}, path ${result.counterexamplePath}): ${String(result.errorInstance).slice(0, 400)}\n  variables: ${example}`,
      );
    }
  }
  // How far the inputs got: answered, or refused with which code (most should be refused, some answered).
  console.info(kind, Object.fromEntries([...tally].sort((a, b) => b[1] - a[1])));
  return failures;
}
