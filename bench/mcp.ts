/**
 * MCP: what the Model Context Protocol layer adds around the agents' tools. Over the research
 * benchmark's generated workspace, one member's API token lists the tools and runs keyword_search
 * through POST /mcp (stateless streamable HTTP: token check, rate-limit counter, workspace setting,
 * audit entry, JSON-RPC), beside the same tool through GraphQL's runAgentTool with the same token.
 * Aim: an MCP tool call within 1.5x of the GraphQL one, tools/list p95 under 50 ms.
 *
 * `npm run bench` runs it after AI, on the same data. `tsx bench/mcp.ts` runs it alone on a
 * database kept between runs (BENCH_MCP_DIR, default /tmp/fieldbook-mcp-bench), generating the
 * research workspace on the first run only at BENCH_MCP_SCALE (default 0.02: 2,000 notes).
 */
import { graphql, percentile, round, withFieldbook } from './support.ts';

export interface McpBench {
  calls: number;
  listP50Ms: number;
  listP95Ms: number;
  mcpSearchP50Ms: number;
  mcpSearchP95Ms: number;
  graphqlSearchP50Ms: number;
  graphqlSearchP95Ms: number;
  /** MCP p50 over GraphQL p50 for the same keyword_search calls. */
  mcpToGraphqlRatio: number;
}

/** Below the 120 requests a minute one token may make: list + search per round. */
const CALLS = 50;
const QUERIES = ['onboarding', 'pricing', 'export', 'search', 'integration', 'billing', 'team', 'customer'];
const RUN_TOOL = 'mutation($name: String!, $input: JSON) { runAgentTool(name: $name, input: $input) { text } }';

async function timed(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchMcp(opts: {
  url: string;
  token: string;
  workspaceId: string;
  log(line: string): void;
}): Promise<McpBench> {
  const { url, workspaceId, log } = opts;
  const created = await graphql<{ createApiToken: { token: string } }>(
    url,
    'mutation { createApiToken(name: "MCP bench") { token } }',
    {},
    opts.token,
    workspaceId,
  );
  const apiToken = created.createApiToken.token;
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${apiToken}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as {
      result?: { isError?: boolean };
      error?: { message: string };
      errors?: Array<{ message: string }>;
    };
    if (!res.ok || body.error || body.result?.isError)
      throw new Error(`MCP ${method}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  };

  log(`mcp: ${CALLS} tools/list, ${CALLS} keyword_search over /mcp and ${CALLS} through GraphQL ...`);
  // One call of each first, so neither side pays for a cold cache in the samples.
  await rpc('tools/list', {});
  await rpc('tools/call', { name: 'keyword_search', arguments: { query: 'warm up' } });
  const list: number[] = [];
  const mcp: number[] = [];
  const gql: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const query = QUERIES[i % QUERIES.length]!;
    list.push(await timed(() => rpc('tools/list', {})));
    mcp.push(await timed(() => rpc('tools/call', { name: 'keyword_search', arguments: { query } })));
    gql.push(
      await timed(
        async () => void (await graphql(url, RUN_TOOL, { name: 'keyword_search', input: { query } }, apiToken)),
      ),
    );
  }
  const p = (s: number[], q: number) => round(percentile(s, q));
  return {
    calls: CALLS,
    listP50Ms: p(list, 50),
    listP95Ms: p(list, 95),
    mcpSearchP50Ms: p(mcp, 50),
    mcpSearchP95Ms: p(mcp, 95),
    graphqlSearchP50Ms: p(gql, 50),
    graphqlSearchP95Ms: p(gql, 95),
    mcpToGraphqlRatio: round(percentile(mcp, 50) / percentile(gql, 50), 2),
  };
}

export function mcpTable(r: McpBench): string[] {
  return [
    `MCP at /mcp (${r.calls} calls each, one API token; aim: tools/list p95 < 50 ms, tool call within 1.5x of GraphQL)`,
    `  tools/list                   p50 ${r.listP50Ms} ms   p95 ${r.listP95Ms} ms`,
    `  keyword_search over MCP      p50 ${r.mcpSearchP50Ms} ms   p95 ${r.mcpSearchP95Ms} ms`,
    `  keyword_search over GraphQL  p50 ${r.graphqlSearchP50Ms} ms   p95 ${r.graphqlSearchP95Ms} ms   (MCP/GraphQL ${r.mcpToGraphqlRatio}x)`,
  ];
}

async function main(): Promise<void> {
  const { join } = await import('node:path');
  const { keptResearchWorkspace } = await import('./research.ts');
  const keptDir = process.env.BENCH_MCP_DIR ?? '/tmp/fieldbook-mcp-bench';
  await withFieldbook(
    { label: 'bench-mcp', keptDir, pgPort: process.env.BENCH_MCP_PG_PORT ?? '54341' },
    async ({ fieldbook, url, dataDir, mailbox, log }) => {
      const state = await keptResearchWorkspace({
        owner: fieldbook.db.owner,
        url,
        mailbox,
        stateFile: join(dataDir, 'bench-mcp.json'),
        prefix: 'bench-mcp',
        scale: Number(process.env.BENCH_MCP_SCALE ?? 0.02),
        log,
      });
      const r = await benchMcp({ url, token: state.token, workspaceId: state.workspaceId, log });
      for (const line of mcpTable(r)) console.log(line);
    },
  );
}

if (process.argv[1]?.endsWith('bench/mcp.ts')) await main();
