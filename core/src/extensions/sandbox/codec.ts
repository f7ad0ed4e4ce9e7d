/**
 * How values cross the sandbox's boundary, in both directions: JSON text, with bytes (webhook
 * bodies, HMAC keys, downloads) as base64. Nothing crosses by reference, so neither side can reach
 * the other's objects or prototypes; keys named `__proto__` are dropped on the way in.
 *
 * This file runs on both sides: `Buffer` is Node's on the host and the bundled one in the isolate.
 */

// Taken once: a plugin that replaces JSON's functions in its isolate must not change how its answers cross.
const { stringify, parse } = JSON;

interface EncodedBytes {
  $bytes: string;
}

function isEncodedBytes(value: unknown): value is EncodedBytes {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as EncodedBytes).$bytes === 'string' &&
    Object.keys(value).length === 1
  );
}

export function encode(value: unknown): string {
  const text = stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    const raw = this[key];
    if (raw instanceof Uint8Array)
      return {
        $bytes: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64'),
      } satisfies EncodedBytes;
    return v;
  });
  return text ?? 'null';
}

export function decode(text: string): unknown {
  return parse(text, (key, v: unknown) => {
    if (key === '__proto__') return undefined;
    return isEncodedBytes(v) ? Buffer.from(v.$bytes, 'base64') : v;
  });
}

/** An error as it crosses: what the other side needs to throw the same kind of error again. */
export interface CrossingError {
  name: string;
  message: string;
  /** A PluginPermissionError's permission. */
  permission?: string;
  /** A PluginInputError's or AppError's field and code. */
  field?: string;
  code?: string;
  /** An error the host threw into this call, returned unchanged when the plugin lets it through. */
  hostRef?: number;
}

/** The answer of a call across the boundary. */
export type Outcome = { ok: unknown } | { error: CrossingError };

/** What a call's code sees of its context; the methods are rebuilt inside and proxied out. */
export interface ContextDescription {
  plugin: { id: string; version: string };
  config: Record<string, string | undefined>;
  publicUrl: string;
  /** Present for the work of one installation (webhook handling, jobs, actions, GraphQL fields). */
  installation: unknown;
  /** The signed-in person, for GraphQL fields. */
  viewer: unknown;
  /** The data capabilities the manifest granted (`notes`, `projects`). */
  granted: string[];
}

/** What the sandbox reports of a plugin once its bundle ran: everything the host needs but its code. */
export interface PluginDescription {
  manifest: unknown;
  settings: unknown;
  config: unknown;
  /** `notes`: whether the webhook turns batches of events into notes (`notesFor`, `notesMade`). */
  webhooks: Array<{ path: string; respond: boolean; notes?: boolean }>;
  /** The webhook at each installation's own URL, if the plugin has one. */
  installationWebhook: { respond: boolean } | null;
  jobs: Array<{ name: string; retryLimit?: number }>;
  actions: Array<{ key: string; title: string; description?: string }>;
  /** Agent tools, with their input's JSON Schema worked out inside (the zod schema stays there). */
  tools?: Array<{
    name: string;
    description: string;
    access?: 'read' | 'write';
    needsConfirmation?: boolean;
    inputSchema: unknown;
  }>;
  oauth: { level: 'workspace' | 'user' } | null;
  graphql: { typeDefs: string; query: string[]; mutation: string[] } | null;
  setup: boolean;
  /** Import sources: everything but `settings` (a schema, checked inside) and `list`. */
  importSources?: Array<{ kind: string; label: string; description?: string; fields: unknown; fieldTypes?: unknown }>;
}

/** A request init as it crosses: method, header pairs and a body of text or bytes. */
export interface CrossingRequest {
  method?: string;
  headers: Array<[string, string]>;
  body: string | Uint8Array | null;
  redirect?: 'follow' | 'manual' | 'error';
}

export interface CrossingResponse {
  status: number;
  statusText: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
}
