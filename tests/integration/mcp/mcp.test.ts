import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import agents from '../../../modules/agents/src/index.ts';
import mcp, { MCP_REQUESTS_PER_MINUTE, TOKEN_REQUIRED, WRITES_NOT_ALLOWED } from '../../../modules/mcp/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import ai from '../../../modules/ai/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { buildCorpus, type Corpus } from '../ai/corpus.ts';
import { ok, type Gql } from '../research/content-support.ts';

let server: TestServer;
let mail: TestMailServer;
let c: Corpus;
let viewerToken: string;
let contributorToken: string;

interface Item {
  type: string;
  id: string;
}

const createToken = async (gql: Gql, name: string) =>
  ok(
    await gql<{ createApiToken: { token: string; apiToken: { id: string } } }>(
      'mutation($n: String!) { createApiToken(name: $n) { token apiToken { id } } }',
      { n: name },
    ),
  ).createApiToken;

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'fieldbook-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const post = (authorization?: string, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(body),
  });

const itemsOf = (r: object) =>
  ((r as { structuredContent?: { items?: Item[] } }).structuredContent?.items ?? []).map((i) => i.id);

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer(
    { smtpUrl: mail.url },
    { modules: [research, search, ai, agents, mcp], discoverPlugins: false },
  );
  c = await buildCorpus(server, mail);
  viewerToken = (await createToken(c.f.viewer.gql, 'Claude Desktop')).token;
  contributorToken = (await createToken(c.f.contributor.gql, 'VS Code')).token;
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('MCP at /mcp', () => {
  it('lists the agents’ read tools and runs get_note and keyword_search as the token’s member, auditing each call', async () => {
    const client = await connect(viewerToken);
    expect(client.getServerVersion()?.name).toBe('fieldbook');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get_note', 'keyword_search', 'list_projects', 'search']));
    expect(names).not.toContain('create_document');
    expect(names).not.toContain('askForConfirmation');
    expect(tools.find((t) => t.name === 'get_note')).toMatchObject({
      inputSchema: { type: 'object', required: ['noteId'] },
      annotations: { readOnlyHint: true },
    });

    const note = await client.callTool({ name: 'get_note', arguments: { noteId: c.notes.maria } });
    expect(note.isError).toBeFalsy();
    expect(note.content).toEqual([
      { type: 'text', text: expect.stringContaining('the onboarding flow took far too long') },
    ]);
    expect(note.structuredContent).toMatchObject({
      items: [{ type: 'NOTE', id: c.notes.maria }],
      data: { id: c.notes.maria, projectId: c.study },
    });

    const hits = await client.callTool({ name: 'keyword_search', arguments: { query: 'annual discount' } });
    expect(itemsOf(hits)).toContain(c.notes.tom);
    await client.close();

    const audit = (await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: c.f.ws.id, kind: 'MCP_TOOL_CALL', actor_user_id: c.f.viewer.user.id })
      .orderBy('created_at')
      .select('metadata')) as Array<{ metadata: Record<string, unknown> }>;
    expect(audit.map((a) => a.metadata)).toEqual([
      { tool: 'get_note', access: 'read', outcome: 'ok' },
      { tool: 'keyword_search', access: 'read', outcome: 'ok' },
    ]);
  });

  it('cannot read a restricted project’s note: the member’s own permissions apply', async () => {
    const client = await connect(viewerToken);
    const secret = await client.callTool({ name: 'get_note', arguments: { noteId: c.notes.secret } });
    expect(secret).toMatchObject({ isError: true, content: [{ type: 'text', text: 'That note was not found.' }] });
    const hits = await client.callTool({ name: 'keyword_search', arguments: { query: 'pricing onboarding' } });
    expect(itemsOf(hits)).not.toContain(c.notes.secret);
    expect(JSON.stringify(hits)).not.toContain('acquire a competitor');
    await client.close();
  });

  it('answers bad input as a tool error naming the field, never a stack', async () => {
    const client = await connect(viewerToken);
    const bad = await client.callTool({ name: 'keyword_search', arguments: { query: 'pricing', limit: 500 } });
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'limit: at most 50.' }] });
    const unknown = await client.callTool({ name: 'drop_database', arguments: {} });
    expect(unknown).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'There is no tool named "drop_database".' }],
    });
    await client.close();
  });

  it('hides and refuses write tools until an admin allows MCP clients to make changes', async () => {
    const client = await connect(contributorToken);
    const input = { projectId: c.study, title: 'Written from Claude', text: 'Onboarding came up again.' };
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('create_document');
    expect(await client.callTool({ name: 'create_document', arguments: input })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: WRITES_NOT_ALLOWED }],
    });

    const refused = await c.f.viewer.gql(
      'mutation { updateMcpSettings(input: { allowWrites: true }) { allowWrites } }',
    );
    expect(refused.errors?.[0]?.extensions?.errorCode).toBe('FORBIDDEN');
    const allowed = ok(
      await c.f.admin<{ updateMcpSettings: { allowWrites: boolean; url: string } }>(
        'mutation { updateMcpSettings(input: { allowWrites: true }) { allowWrites url } }',
      ),
    );
    expect(allowed.updateMcpSettings).toEqual({ allowWrites: true, url: 'http://localhost:3000/mcp' });

    const create = (await client.listTools()).tools.find((t) => t.name === 'create_document');
    expect(create).toMatchObject({ annotations: { readOnlyHint: false } });
    const created = await client.callTool({ name: 'create_document', arguments: input });
    expect(created.isError).toBeFalsy();
    const id = itemsOf(created)[0]!;
    const row = (await server.fieldbook.db.owner('notes').where({ id }).first('title', 'created_by')) as {
      title: string;
      created_by: string;
    };
    expect(row).toEqual({ title: 'Written from Claude', created_by: c.f.contributor.user.id });
    await client.close();

    // A viewer's token still cannot change anything: the setting opens writes, the role decides,
    // and a viewer's client is not offered tools it could never run.
    const viewer = await connect(viewerToken);
    const offered = (await viewer.listTools()).tools;
    expect(offered.map((t) => t.name)).toContain('keyword_search');
    expect(offered.filter((t) => t.annotations?.readOnlyHint === false)).toEqual([]);
    expect(await viewer.callTool({ name: 'create_document', arguments: input })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Viewers cannot use create_document: it changes things in the workspace.' }],
    });
    await viewer.close();
    ok(await c.f.admin('mutation { updateMcpSettings(input: { allowWrites: false }) { allowWrites } }'));
    const audit = (await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: c.f.ws.id, kind: 'MCP_TOOL_CALL', actor_user_id: c.f.contributor.user.id })
      .orderBy('created_at')
      .select('metadata')) as Array<{ metadata: Record<string, unknown> }>;
    expect(audit.map((a) => a.metadata)).toEqual([
      { tool: 'create_document', access: 'write', outcome: 'refused', errorCode: 'FORBIDDEN' },
      { tool: 'create_document', access: 'write', outcome: 'ok' },
    ]);
  });

  it('answers 401 with WWW-Authenticate without a token, with a session token, and with a revoked one', async () => {
    const none = await post();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="Fieldbook"');
    expect(((await none.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toBe(TOKEN_REQUIRED);

    const session = await post(`Bearer ${c.f.viewer.accessToken}`);
    expect(session.status).toBe(401);
    expect(session.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const { token, apiToken } = await createToken(c.f.viewer.gql, 'soon revoked');
    expect((await post(`Bearer ${token}`)).status).toBe(200);
    ok(await c.f.viewer.gql('mutation($id: ID!) { revokeApiToken(id: $id) }', { id: apiToken.id }));
    const revoked = await post(`Bearer ${token}`);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connect(token)).rejects.toThrow();
  });

  it('answers tools/list without a session (curl), and GET or DELETE with 405', async () => {
    const res = await post(`Bearer ${viewerToken}`);
    const body = (await res.json()) as { result: { tools: Array<{ name: string }> } };
    expect(body.result.tools.map((t) => t.name)).toContain('get_note');
    for (const method of ['GET', 'DELETE']) {
      const other = await fetch(`${server.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${viewerToken}`, accept: 'text/event-stream' },
      });
      expect(other.status).toBe(405);
      expect(other.headers.get('allow')).toBe('POST');
    }
  });

  it('answers params that do not fit a protocol method as -32602 Invalid params naming the field, not as an internal error', async () => {
    const answer = async (method: string, params: unknown) =>
      (await (await post(`Bearer ${viewerToken}`, { jsonrpc: '2.0', id: 7, method, params })).json()) as {
        error?: { code: number; message: string };
      };
    const initialize = await answer('initialize', { clientInfo: 'me' });
    expect(initialize.error?.code).toBe(-32602);
    expect(initialize.error?.message).toMatch(/^Invalid params for initialize: params\.protocolVersion: /);
    expect((await answer('tools/call', { name: 5 })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params for tools\/call: params\.name: /),
    });
    // In a batch, the request that fits is answered as usual beside the one refused.
    const batch = (await (
      await post(`Bearer ${viewerToken}`, [
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ])
    ).json()) as Array<{ id: number; error?: { code: number }; result?: unknown }>;
    expect(batch.find((a) => a.id === 1)?.error?.code).toBe(-32602);
    expect(batch.find((a) => a.id === 2)?.result).toMatchObject({ tools: expect.any(Array) });
  });

  it('limits requests per API token, answering 429 with Retry-After', async () => {
    const { token, apiToken } = await createToken(c.f.viewer.gql, 'busy client');
    expect((await post(`Bearer ${token}`)).status).toBe(200);
    // The token has used its minute's allowance (rather than sending it all from the test).
    await server.fieldbook.db
      .owner('sign_in_limits')
      .where({ key: `mcp:${apiToken.id}` })
      .update({ attempts: MCP_REQUESTS_PER_MINUTE });
    const limited = await post(`Bearer ${token}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toMatch(
      new RegExp(
        `^Too many MCP requests with this API token \\(at most ${MCP_REQUESTS_PER_MINUTE} a minute\\)\\. Try again in (\\d+ seconds|1 minute)\\.$`,
      ),
    );
    // Another token of the same person has its own allowance.
    expect((await post(`Bearer ${viewerToken}`)).status).toBe(200);
  });
});
