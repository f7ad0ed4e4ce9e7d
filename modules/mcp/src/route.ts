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
import { mcpServerFor } from './server.ts';

export const MCP_PATH = '/mcp';

/** Without the agents module there are no tools to serve; the server still answers, with none. */
const NO_TOOLS: McpToolSource = { tools: () => [], runTool: () => Promise.reject(new Error('No tools are loaded.')) };
export const TOKEN_REQUIRED = 'Send a personal API token as "Authorization: Bearer <token>" (Settings → API tokens).';

/** Requests one API token may make to /mcp per minute; each tool call is one request. */
export const MCP_REQUESTS_PER_MINUTE = 120;

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

/** JSON-RPC's own error shape, for what the stateless endpoint does not offer. */
function methodNotAllowed(koa: Koa.Context): void {
  koa.status = 405;
  koa.set('allow', 'POST');
  koa.body = {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'This MCP server is stateless: send each request as a POST to /mcp.' },
    id: null,
  };
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
    const refusal = await counters.take([
      { key: `mcp:${member.viewer!.apiTokenId}`, allowance: { limit: perMinute, windowSeconds: 60 } },
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
    // Bodies over the SDK's 4 MiB are answered 413 before they are parsed; tool inputs are far smaller.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the answer itself; Koa must not write one after it.
    koa.respond = false;
    koa.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(koa.req, koa.res);
  });

  for (const method of ['get', 'delete'] as const) {
    router[method](MCP_PATH, async (koa) => {
      await memberOf(koa, ctx);
      methodNotAllowed(koa);
    });
  }
}
