import type { RouteRequest } from './route-arbitraries.ts';

/**
 * How a route answered a generated request: `refused` (a clear client error: a 4xx with a
 * message, a JSON-RPC error, a tool error), `accepted`, `internal` (a 5xx, an
 * INTERNAL_SERVER_ERROR anywhere, a JSON-RPC internal error, the MCP gateway's "something went
 * wrong"), or `unclear` (a 4xx without a message to show).
 */
export type Verdict =
  | { kind: 'refused' | 'accepted'; label: string }
  | { kind: 'internal' | 'unclear'; label: string; why: string };

/** JSON-RPC's "Internal error". */
const RPC_INTERNAL = -32603;
const INTERNAL_TEXTS = ['INTERNAL_SERVER_ERROR', 'Something went wrong'];

interface RpcResponse {
  error?: { code?: number; message?: string };
  result?: { isError?: boolean };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The message a client error carries: Fieldbook's `errors[0].message` or JSON-RPC's `error.message`. */
function clientMessage(body: unknown): string | undefined {
  const b = body as { errors?: Array<{ message?: string }>; error?: { message?: string } } | undefined;
  return b?.errors?.[0]?.message || b?.error?.message || undefined;
}

export function verdictOf(request: RouteRequest, res: Response, text: string): Verdict {
  if (res.status >= 500) return { kind: 'internal', label: String(res.status), why: `status ${res.status}` };
  const internalText = INTERNAL_TEXTS.find((t) => text.includes(t));
  if (internalText) return { kind: 'internal', label: 'internal', why: `the answer says "${internalText}"` };
  const body = parse(text);
  if (res.status >= 400) {
    const errorCode = (body as { errors?: Array<{ extensions?: { errorCode?: string } }> } | undefined)?.errors?.[0]
      ?.extensions?.errorCode;
    const rpcCode = (body as RpcResponse | undefined)?.error?.code;
    const label = `${res.status} ${errorCode ?? (rpcCode !== undefined ? `rpc ${rpcCode}` : '')}`.trim();
    // A URL or body too large for the HTTP server itself (431, 413) is refused before any route runs: the status says it all.
    return clientMessage(body) || res.status === 431 || res.status === 413
      ? { kind: 'refused', label }
      : { kind: 'unclear', label, why: 'a client error without a message' };
  }
  if (request.path !== '/mcp') {
    const streamError = /event: error\ndata: \{"errorCode":"([A-Z_]+)"/.exec(text)?.[1];
    return { kind: 'accepted', label: streamError ? `${res.status} then ${streamError}` : String(res.status) };
  }
  // MCP: a notification alone is answered 202 with no body; requests get one response each.
  if (res.status === 202 && !text) return { kind: 'accepted', label: '202' };
  const responses = (Array.isArray(body) ? body : [body]) as Array<RpcResponse | undefined>;
  if (responses.some((r) => r?.error?.code === RPC_INTERNAL))
    return { kind: 'internal', label: 'rpc internal', why: 'a JSON-RPC internal error' };
  const refused = responses.filter((r) => r?.error || r?.result?.isError).length;
  const label = responses
    .map((r) => (r?.error ? `rpc ${r.error.code}` : r?.result?.isError ? 'tool error' : 'answered'))
    .join('+');
  return { kind: refused === responses.length ? 'refused' : 'accepted', label };
}
