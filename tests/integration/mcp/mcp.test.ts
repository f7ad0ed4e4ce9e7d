import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput, defineModule, workspacesModule, type AgentTool } from '../../../core/src/index.ts';
import { mcpEndpoint, mcpRoutes, settingsPart, TOKEN_REQUIRED, WRITES_NOT_ALLOWED } from '../../../modules/mcp/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';

// Stand-ins for agents' tools: they answer with the context they ran as, so the test sees whose.
const TOOLS: AgentTool[] = [
  {
    name: 'whoami',
    description: 'Says who the caller is.',
    inputSchema: { type: 'object', properties: {} },
    access: 'read',
    run: async (member) => {
      const { viewer, workspace, membership } = member.authorize('projects:read');
      return { text: viewer.email, data: { userId: viewer.userId, workspaceId: workspace.id, role: membership.role } };
    },
  },
  {
    name: 'limited',
    description: 'Refuses a limit above 50.',
    inputSchema: { type: 'object', properties: { limit: { type: 'number' } } },
    access: 'read',
    run: async () => {
      throw badInput('limit', 'limit can be at most 50.');
    },
  },
  {
    name: 'crash',
    description: 'Fails unexpectedly.',
    inputSchema: { type: 'object', properties: {} },
    access: 'read',
    run: async () => {
      throw new Error('connection reset at /srv/internal.ts:12');
    },
  },
  {
    name: 'touch',
    description: 'Changes something.',
    inputSchema: { type: 'object', properties: {} },
    access: 'write',
    run: async () => ({ text: 'Touched.' }),
  },
];

/** A small rate limit, so the test reaches it in a few requests. */
const PER_MINUTE = 40;

const mcpWithTools = defineModule({
  name: 'mcp',
  dependsOn: [workspacesModule],
  graphql: (ctx) => settingsPart(() => mcpEndpoint(ctx)),
  routes: (router, ctx) => mcpRoutes(router, ctx, () => TOOLS, 'test', PER_MINUTE),
});

let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let viewerToken: string;

const createToken = async (gql: ContentFixture['admin'], name: string) =>
  ok(await gql<{ createApiToken: { token: string; apiToken: { id: string } } }>('mutation($n: String!) { createApiToken(name: $n) { token apiToken { id } } }', { n: name })).createApiToken;

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'fieldbook-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, mcpWithTools] });
  f = await contentFixture(server, mail, ['VIEWER']);
  viewerToken = (await createToken(f.viewer.gql, 'Claude Desktop')).token;
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('MCP at /mcp', () => {
  it('lists read tools and runs them as the token’s member, auditing each call', async () => {
    const client = await connect(viewerToken);
    expect(client.getServerVersion()?.name).toBe('fieldbook');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['whoami', 'limited', 'crash']);
    expect(tools[0]).toMatchObject({ inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });

    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: f.viewer.user.email }]);
    expect(result.structuredContent).toEqual({ items: [], data: { userId: f.viewer.user.id, workspaceId: f.ws.id, role: 'VIEWER' } });
    await client.close();

    const audit = await server.fieldbook.db.owner('audit_log').where({ workspace_id: f.ws.id, kind: 'MCP_TOOL_CALL', actor_user_id: f.viewer.user.id }).select('metadata', 'subject_id');
    expect(audit.map((a) => (a.metadata as { tool: string; outcome: string }).tool)).toContain('whoami');
  });

  it('answers errors as tool errors with the product’s message, never a stack', async () => {
    const client = await connect(viewerToken);
    const bad = await client.callTool({ name: 'limited', arguments: { limit: 99 } });
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'limit can be at most 50.' }] });
    const crash = await client.callTool({ name: 'crash', arguments: {} });
    expect(crash).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Something went wrong on our side. Please try again.' }] });
    expect(JSON.stringify(crash)).not.toContain('internal.ts');
    await client.close();
  });

  it('hides and refuses write tools until an admin allows MCP clients to make changes', async () => {
    const client = await connect(viewerToken);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('touch');
    expect(await client.callTool({ name: 'touch', arguments: {} })).toMatchObject({ isError: true, content: [{ type: 'text', text: WRITES_NOT_ALLOWED }] });

    const refused = await f.viewer.gql('mutation { updateMcpSettings(input: { allowWrites: true }) { allowWrites } }');
    expect(refused.errors?.[0]?.extensions?.errorCode).toBe('FORBIDDEN');
    const allowed = ok(await f.admin<{ updateMcpSettings: { allowWrites: boolean; url: string } }>('mutation { updateMcpSettings(input: { allowWrites: true }) { allowWrites url } }'));
    expect(allowed.updateMcpSettings).toEqual({ allowWrites: true, url: 'http://localhost:3000/mcp' });

    expect((await client.listTools()).tools.map((t) => t.name)).toContain('touch');
    expect(await client.callTool({ name: 'touch', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'Touched.' }] });
    await client.close();
    ok(await f.admin('mutation { updateMcpSettings(input: { allowWrites: false }) { allowWrites } }'));
  });

  it('answers 401 with WWW-Authenticate without a token, with a session token, and with a revoked one', async () => {
    const post = (authorization?: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const none = await post();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="Fieldbook"/);
    expect(((await none.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toBe(TOKEN_REQUIRED);

    const session = await post(`Bearer ${f.viewer.accessToken}`);
    expect(session.status).toBe(401);

    const { token, apiToken } = await createToken(f.viewer.gql, 'soon revoked');
    const client = await connect(token);
    await client.close();
    ok(await f.viewer.gql('mutation($id: ID!) { revokeApiToken(id: $id) }', { id: apiToken.id }));
    const revoked = await post(`Bearer ${token}`);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connect(token)).rejects.toThrow();
  });

  it('has no sessions: GET and DELETE answer 405', async () => {
    const res = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${viewerToken}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('limits requests per API token, answering 429 with Retry-After', async () => {
    const { token } = await createToken(f.viewer.gql, 'busy client');
    const list = () =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    for (let i = 0; i < PER_MINUTE; i++) expect((await list()).status).toBe(200);
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toMatch(new RegExp(`^Too many MCP requests with this API token \\(at most ${PER_MINUTE} a minute\\)\\. Try again in (\\d+ seconds|1 minute)\\.$`));
    // Another token of the same person has its own allowance.
    const other = await connect(viewerToken);
    expect((await other.listTools()).tools.length).toBeGreaterThan(0);
    await other.close();
  });
});
