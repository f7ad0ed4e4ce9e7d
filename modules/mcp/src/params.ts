import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The protocol methods this server answers, each with the SDK's schema of its request. */
const SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

/**
 * The SDK answers a request whose params do not fit its method's schema as -32603 Internal
 * error, with the schema's issues as the message (modelcontextprotocol/typescript-sdk#2284). The
 * mistake is the client's: such a request is answered -32602 Invalid params naming the first
 * field that does not fit, before the server sees it. Call once the server is connected.
 */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const schema = isJSONRPCRequest(message) ? SCHEMAS[message.method as keyof typeof SCHEMAS] : undefined;
    const parsed = schema?.safeParse(message);
    if (!isJSONRPCRequest(message) || !parsed || parsed.success) return deliver(message, extra);
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || 'params';
    void transport.send({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: ErrorCode.InvalidParams,
        message: `Invalid params for ${message.method}: ${field}: ${issue?.message ?? 'does not fit the method'}`,
      },
    });
  };
}
