import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import agents from '../../../modules/agents/src/index.ts';
import mcp from '../../../modules/mcp/src/index.ts';
import ai from '../../../modules/ai/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import { buildCorpus, type Corpus } from '../ai/corpus.ts';
import { createProject, ok, type Gql } from '../research/content-support.ts';

/**
 * One member's flood of searches through MCP must not take the database from everyone else: no
 * request holds one pooled connection while it waits for another, a member's searches beyond their
 * share wait their turn or are refused with a plain sentence, and another workspace's reads go on.
 */

let server: TestServer;
let mail: TestMailServer;
let c: Corpus;
let viewerToken: string;
let other: Gql;

/** knex's default: a request that waits this long for a connection fails. */
const ACQUIRE_TIMEOUT_MS = 60_000;
const BUSY = /^Too many searches at once/;

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer(
    { smtpUrl: mail.url, databasePoolMax: 10, databaseNestedAcquireCheck: 'throw' },
    { modules: [research, search, ai, agents, mcp], discoverPlugins: false },
  );
  c = await buildCorpus(server, mail);
  viewerToken = ok(
    await c.f.viewer.gql<{ createApiToken: { token: string } }>('mutation { createApiToken(name: "flood") { token } }'),
  ).createApiToken.token;
  const ws = await createWorkspaceWithAdmin(server, mail);
  other = gqlAs(server, ws.admin.accessToken, ws.id);
  await createProject(other, 'Another team’s study');
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const mcpPost = (body: unknown) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${viewerToken}`,
    },
    body: JSON.stringify(body),
  });

const searchCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'keyword_search', arguments: { query: 'onboarding pricing' } },
});

interface CallAnswer {
  result?: { isError?: boolean; content: Array<{ text: string }> };
  error?: { message: string };
}

/** Another workspace's admin reading their projects, timed. */
async function otherRead(): Promise<{ ms: number; error: string | null }> {
  const started = performance.now();
  const res = await other<{ projects: unknown[] }>('{ projects { id } }');
  return { ms: performance.now() - started, error: res.errors ? JSON.stringify(res.errors) : null };
}

describe('a member’s flood of MCP searches', () => {
  it('50 concurrent keyword searches from a viewer leave another workspace’s reads unhindered', async () => {
    const calls = Array.from({ length: 50 }, (_, i) =>
      mcpPost(searchCall(i + 1)).then(async (r) => ({ status: r.status, body: (await r.json()) as CallAnswer })),
    );
    // Four readers in the other workspace, each reading again as soon as its last read ends.
    const reads: Array<{ ms: number; error: string | null }> = [];
    let flooding = true;
    const done = Promise.allSettled(calls).then(() => (flooding = false));
    const reader = async () => {
      do reads.push(await otherRead());
      while (flooding);
    };
    await Promise.all([reader(), reader(), reader(), reader(), done]);

    expect(reads.filter((r) => r.error)).toEqual([]);
    // Structural, not a speed target: nobody waited for the pool until it gave up (or near it).
    expect(Math.max(...reads.map((r) => r.ms))).toBeLessThan(ACQUIRE_TIMEOUT_MS / 4);

    const answers = await Promise.all(calls);
    const answered = answers.filter((a) => a.status === 200 && a.body.result && !a.body.result.isError);
    const refused = answers.filter((a) => !answered.includes(a));
    expect(answered.length).toBeGreaterThan(0);
    // Every other call waited its turn and was refused with a sentence saying why, never a failure.
    for (const a of refused) expect(a.body.result?.content[0]?.text, JSON.stringify(a)).toMatch(BUSY);
  }, 180_000);

  it('counts each request of a batch against the token’s allowance and refuses a batch over the cap', async () => {
    const big = await mcpPost(Array.from({ length: 12 }, (_, i) => searchCall(i + 1)));
    expect(big.status).toBe(400);
    const body = (await big.json()) as { error: { message: string } };
    expect(body.error.message).toBe('A batch may hold at most 10 requests; send the others in another request.');

    const before = await server.fieldbook.db.owner('sign_in_limits').where('key', 'like', 'mcp:%').sum('attempts as n');
    const small = await mcpPost(Array.from({ length: 3 }, (_, i) => searchCall(i + 1)));
    expect(small.status).toBe(200);
    const after = await server.fieldbook.db.owner('sign_in_limits').where('key', 'like', 'mcp:%').sum('attempts as n');
    expect(Number(after[0]!.n) - Number(before[0]!.n)).toBe(3);
  }, 60_000);
});
