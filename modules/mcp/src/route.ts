import type Router from '@koa/router';
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  AppError,
  AttemptCounters,
  inWords,
  tooManyRequests,
  type ModuleContext,
  type RequestContext,
} from '@fieldbook/core';
import { toolboxFor, type McpToolSource } from './gateway.ts';
import { refuseInvalidParams } from './params.ts';
import { mcpServerFor } from './server.ts';

export const MCP_PATH = '/mcp';

/** Without the agents module there are no tools to serve; the server still answers, with none. */
const NO_TOOLS: McpToolSource = {
  tools: () => [],
  runTool: () => Promise.reject(new Error('No tools are loaded.')),
  mayRun: () => false,
};
export const TOKEN_REQUIRED = 'Send a personal API token as "Authorization: Bearer <token>" (Settings → API tokens).';

/** Requests one API token may make to /mcp per minute; each tool call is one request, in a batch too. */
export const MCP_REQUESTS_PER_MINUTE = 120;
/** JSON-RPC requests one POST may carry: a batch runs at once, so it is kept to what one member may run at once. */
export const MCP_MAX_BATCH = 10;
export const BATCH_TOO_LARGE = `A batch may hold at most ${MCP_MAX_BATCH} requests; send the others in another request.`;
/** The SDK's own bound on a body; tool inputs are far smaller. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const API_TOKEN = /^\s*bearer\s+(?:api\.)?[0-9a-f-]{36}\.[A-Za-z0-9_-]{20,200}\s*$/i;

/**
 * Answers 401 the way OAuth resource servers do (RFC 6750), so MCP clients know to ask their user
 * for a token rather than retry.
 */
function refuse(koa: Koa.Context, message: string, error?: 'invalid_token'): never {
  // Header values are Latin-1: the description is a fixed ASCII sentence, the body has the message.
  koa.set(
    'www-authenticate',
    `Bearer realm="Fieldbook"${error ? `, error="${error}", error_description="The API token is not valid or was revoked."` : ''}`,
  );
  throw new AppError('UNAUTHENTICATED', message);
}

/**
 * The member behind the request's API token: their user and the token's workspace, exactly the
 * context their own API requests get. Only personal API tokens open /mcp (not the web app's
 * short-lived session tokens), so what a client may do is what that token's owner may do.
 */
async function memberOf(koa: Koa.Context, ctx: ModuleContext): Promise<RequestContext> {
  const authorization = koa.get('authorization');
  if (!authorization) refuse(koa, TOKEN_REQUIRED);
  if (!API_TOKEN.test(authorization)) refuse(koa, TOKEN_REQUIRED, 'invalid_token');
  let member: RequestContext;
  try {
    member = await ctx.requestContext(koa);
  } catch (err) {
    if (err instanceof AppError && err.errorCode === 'UNAUTHENTICATED') refuse(koa, err.message, 'invalid_token');
    throw err;
  }
  const { viewer } = member.authorize('projects:read');
  if (!viewer.apiTokenId) refuse(koa, TOKEN_REQUIRED, 'invalid_token');
  return member;
}

/** JSON-RPC's own error shape, for what the endpoint refuses before the MCP server sees it. */
function rpcError(koa: Koa.Context, status: number, code: number, message: string): void {
  koa.status = status;
  koa.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

function methodNotAllowed(koa: Koa.Context): void {
  koa.set('allow', 'POST');
  rpcError(koa, 405, -32000, 'This MCP server is stateless: send each request as a POST to /mcp.');
}

/** The body as JSON: `tooLarge` past the SDK's bound, `invalid` when it does not parse. */
function readJson(koa: Koa.Context): Promise<{ json: unknown } | 'tooLarge' | 'invalid'> {
  if (Number(koa.get('content-length') || 0) > MAX_BODY_BYTES) return Promise.resolve('tooLarge');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        koa.req.off('data', onData);
        koa.req.resume(); // drain the rest unread
        resolve('tooLarge');
        return;
      }
      chunks.push(chunk);
    };
    koa.req.on('data', onData);
    koa.req.once('end', () => {
      if (size > MAX_BODY_BYTES) return;
      try {
        resolve({ json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve('invalid');
      }
    });
    koa.req.once('error', reject);
  });
}

/**
 * POST/GET/DELETE /mcp: the Model Context Protocol over streamable HTTP, stateless. Each POST is
 * authorised by a personal API token, counted against that token's rate limit, and answered by a
 * server built for that member alone; GET (a server-sent event stream) and DELETE (ending a
 * session) have nothing to do without sessions and answer 405, as the protocol allows.
 */
export function mcpRoutes(
  router: Router,
  ctx: ModuleContext,
  tools: () => McpToolSource | undefined,
  version: string,
  perMinute = MCP_REQUESTS_PER_MINUTE,
): void {
  const counters = new AttemptCounters(ctx.db.app);

  router.post(MCP_PATH, async (koa) => {
    const member = await memberOf(koa, ctx);
    const body = await readJson(koa);
    if (body === 'tooLarge')
      return rpcError(koa, 413, -32000, `The request body may be at most ${MAX_BODY_BYTES} bytes.`);
    if (body === 'invalid') return rpcError(koa, 400, -32700, 'Parse error: the body is not valid JSON.');
    // Each request of a batch counts against the allowance, as it would sent alone.
    const requests = Array.isArray(body.json) ? body.json.length : 1;
    if (requests > MCP_MAX_BATCH) return rpcError(koa, 400, -32600, BATCH_TOO_LARGE);
    const refusal = await counters.take([
      {
        key: `mcp:${member.viewer!.apiTokenId}`,
        allowance: { limit: perMinute, windowSeconds: 60 },
        count: Math.max(1, requests),
      },
    ]);
    if (refusal) {
      koa.set('retry-after', String(refusal.retryAfterSeconds));
      throw tooManyRequests(
        member,
        refusal.retryAfterSeconds,
        `Too many MCP requests with this API token (at most ${perMinute} a minute). Try again ${inWords(refusal.retryAfterSeconds)}.`,
      );
    }
    const toolbox = await toolboxFor(member, tools() ?? NO_TOOLS, ctx.logger);
    const server = mcpServerFor(toolbox, version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the answer itself; Koa must not write one after it.
    koa.respond = false;
    koa.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    refuseInvalidParams(transport);
    await transport.handleRequest(koa.req, koa.res, body.json);
  });

  for (const method of ['get', 'delete'] as const) {
    router[method](MCP_PATH, async (koa) => {
      await memberOf(koa, ctx);
      methodNotAllowed(koa);
    });
  }
}
