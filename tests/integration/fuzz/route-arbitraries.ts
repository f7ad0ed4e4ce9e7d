import fc from 'fast-check';
import { HOSTILE_STRINGS } from './input-arbitraries.ts';

/**
 * Requests for the REST routes and the MCP endpoint, generated: mostly the shape each route
 * expects with hostile values inside (wrong types, unknown enums, dates that are not dates, huge
 * lists), some bodies that are not what the route reads at all (not JSON, empty, nested 20,000
 * deep, the wrong top-level type).
 */

/** One HTTP request to make: `path` is under the server's URL. */
export interface RouteRequest {
  method: 'POST' | 'GET' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Real rows the requests may point at. */
export interface RoutePool {
  channelIds: readonly string[];
  conversationIds: readonly string[];
  ids: readonly string[];
  /** The MCP tools the token sees, each with its JSON Schema. */
  tools: ReadonlyArray<{ name: string; inputSchema: JsonSchema }>;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
}

/** Words, any text, and the hostile strings (NUL, lone surrogates, 120,000 characters, ...). */
function textArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('Setup was confusing', 'Pricing', 'a', 'Ünïcödé 😀', 'SMB') },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  );
}

const wrongType = fc.constantFrom<unknown>(7, -1, 1e308, true, null, [], {}, [null], 'text');
/** Mostly `arb`, sometimes a value of another type. */
const orWrong = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: wrongType });

const dateArb = fc.oneof(
  fc
    .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-01-01') })
    .map((d) => d.toISOString()),
  fc.constantFrom('2025-02-30', 'yesterday', '275760-09-13T00:00:00.001Z', '0000-01-01', '1e309', ''),
);

const idIn = (ids: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: ids.length ? fc.constantFrom(...ids) : fc.uuid() },
    { weight: 1, arbitrary: fc.uuid() },
    // Not '..': the client resolves it away, and the request goes to another path.
    { weight: 1, arbitrary: fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000', '%00', ' ', 'ß') },
  );

/** Bodies that are not the JSON object a route reads. */
const notAnObject = fc.constantFrom<string | Buffer>(
  '',
  'not json',
  '{',
  '[]',
  'null',
  '"text"',
  '42',
  '{"a":',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `{"dataPoints":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
  Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
  Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
);

const json = (value: unknown): string => JSON.stringify(value);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', '') },
);

// --- Channels: POST /api/channels/{id}/datapoints, …/csv/preview, …/imports ---

function pointArb(): fc.Arbitrary<unknown> {
  const text = textArb();
  const raw = fc.oneof(
    fc.record(
      {
        kind: fc.constantFrom('ticket', 'conversation', 'email', ''),
        createdAt: orWrong(dateArb),
        name: orWrong(text),
        description: orWrong(text),
        tags: orWrong(fc.array(text, { maxLength: 3 })),
        messages: orWrong(
          fc.array(fc.record({ text: orWrong(text), timestamp: orWrong(dateArb), participant: orWrong(text) }), {
            maxLength: 3,
          }),
        ),
        remoteFields: orWrong(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
      },
      { requiredKeys: [] },
    ),
    wrongType,
  );
  return orWrong(
    fc.record(
      {
        externalId: orWrong(text),
        content: orWrong(text),
        createdAt: orWrong(dateArb),
        externalUrl: orWrong(fc.constantFrom('https://example.com/t/1', 'javascript:alert(1)', 'not a url')),
        importUrl: orWrong(fc.constantFrom('https://example.com/i/1', 'ftp://x', '')),
        sentiment: orWrong(fc.constantFrom('positive', 'negative', 'mixed', 'NEUTRAL', '')),
        person: orWrong(
          fc.record(
            { email: orWrong(fc.constantFrom('someone@example.com', 'not an email', '')), name: orWrong(text) },
            { requiredKeys: [] },
          ),
        ),
        raw,
        fields: orWrong(fc.dictionary(text, fc.oneof(text, fc.double(), fc.boolean(), wrongType), { maxKeys: 4 })),
        fieldTypes: orWrong(
          fc.dictionary(text, fc.constantFrom('TEXT', 'NUMBER', 'DATE', 'SELECT', 'BOOLEAN', 'nope', ''), {
            maxKeys: 3,
          }),
        ),
      },
      { requiredKeys: [] },
    ),
  );
}

/** A push body past the route's 10 MB: answered 413 naming the limit. */
const PUSH_PAST_LIMIT = `{"dataPoints":[{"externalId":"big","content":"${'x'.repeat(11 * 1024 * 1024)}"}]}`;

/** A push of data points. */
function pushBody(): fc.Arbitrary<string | Buffer> {
  const points = fc.oneof(
    { weight: 6, arbitrary: fc.array(pointArb(), { minLength: 1, maxLength: 4 }) },
    { weight: 1, arbitrary: fc.constant([]) },
    // One past the batch limit.
    {
      weight: 1,
      arbitrary: fc.constant(Array.from({ length: 1001 }, (_, i) => ({ externalId: `${i}`, content: 'x' }))),
    },
    { weight: 1, arbitrary: wrongType },
  );
  return fc.oneof(
    { weight: 12, arbitrary: fc.record({ dataPoints: points }).map(json) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
    { weight: 1, arbitrary: notAnObject },
    { weight: 1, arbitrary: fc.constant(PUSH_PAST_LIMIT) },
  );
}

function csvText(): fc.Arbitrary<string> {
  const cell = fc.oneof(textArb(), fc.constantFrom('"quoted, cell"', '"unclosed', 'a""b', '\r', '\n'));
  const row = fc.array(cell, { minLength: 0, maxLength: 5 }).map((cells) => cells.join(','));
  // A file with the columns the settings name, so some imports get past their checks and run.
  const plausible = fc
    .array(fc.tuple(textArb(), dateArb, fc.constantFrom('someone@example.com', 'not an email', ''), cell), {
      maxLength: 4,
    })
    .map((rows) =>
      ['text,date,email,id', ...rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(','))].join('\n'),
    );
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(row, { minLength: 0, maxLength: 6 }).map((rows) => rows.join('\n')) },
    { weight: 6, arbitrary: plausible },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '   ', '\u0000', 'a,b\n1,\u00002', 'text;comment\n"x";"y"', '\ufeffa,b\n1,2'),
    },
  );
}

function settingsArb(): fc.Arbitrary<unknown> {
  const label = orWrong(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('text', 'a', 'b', 'date', 'email', 'id') },
      { weight: 1, arbitrary: textArb() },
    ),
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record(
        {
          analyzeColumnLabel: label,
          timestampColumnLabel: label,
          emailFieldPath: label,
          externalIdColumnLabel: label,
          unselectedHeaders: orWrong(fc.array(textArb(), { maxLength: 3 })),
          minDate: orWrong(dateArb),
          maxDate: orWrong(dateArb),
          fieldTypes: orWrong(fc.dictionary(textArb(), fc.constantFrom('TEXT', 'NUMBER', 'nope'), { maxKeys: 2 })),
          ignoreNul: orWrong(fc.boolean()),
        },
        { requiredKeys: [] },
      ),
    },
    // Well-formed, for the file with those columns: these imports are accepted and run.
    {
      weight: 6,
      arbitrary: fc.record(
        {
          analyzeColumnLabel: fc.constant('text'),
          timestampColumnLabel: fc.constantFrom('date', null),
          emailFieldPath: fc.constantFrom('email', null),
          externalIdColumnLabel: fc.constantFrom('id', null),
          ignoreNul: fc.boolean(),
        },
        { requiredKeys: ['analyzeColumnLabel'] },
      ),
    },
    { weight: 1, arbitrary: wrongType },
  );
}

export function channelRequestArb(pool: RoutePool): fc.Arbitrary<RouteRequest> {
  const channel = idIn(pool.channelIds).map(encodeURIComponent);
  const push = fc.record({ channel, body: pushBody(), type: contentType }).map(
    ({ channel, body, type }): RouteRequest => ({
      method: 'POST',
      path: `/api/channels/${channel}/datapoints`,
      headers: type ? { 'content-type': type } : {},
      body,
    }),
  );
  const csvBody = fc.oneof({ weight: 6, arbitrary: csvText() }, { weight: 1, arbitrary: notAnObject });
  const preview = fc.record({ channel, body: csvBody }).map(
    ({ channel, body }): RouteRequest => ({
      method: 'POST',
      path: `/api/channels/${channel}/csv/preview`,
      headers: { 'content-type': 'text/csv' },
      body,
    }),
  );
  const settingsQuery = fc.oneof(
    { weight: 5, arbitrary: settingsArb().map(json) },
    { weight: 1, arbitrary: fc.constantFrom('{', 'null', '', '%', '[]') },
  );
  const importRequest = fc
    .record({ channel, body: csvBody, settings: fc.option(settingsQuery), name: fc.option(textArb()) })
    .map(({ channel, body, settings, name }): RouteRequest => {
      const query = new URLSearchParams();
      if (settings !== null) query.set('settings', settings);
      if (name !== null) query.set('name', name);
      return {
        method: 'POST',
        path: `/api/channels/${channel}/imports?${query.toString()}`,
        headers: { 'content-type': 'text/csv' },
        body,
      };
    });
  return fc.oneof(
    { weight: 3, arbitrary: push },
    { weight: 1, arbitrary: preview },
    { weight: 2, arbitrary: importRequest },
  );
}

// --- Agents: POST /api/agents/conversations/{id}/messages and …/confirm ---

export function agentRequestArb(pool: RoutePool): fc.Arbitrary<RouteRequest> {
  const conversation = idIn(pool.conversationIds).map(encodeURIComponent);
  const messageBody = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ text: orWrong(textArb()) }, { requiredKeys: [] }).map(json),
    },
    { weight: 1, arbitrary: fc.constant(json({ text: 'x'.repeat(70_000) })) },
    { weight: 1, arbitrary: notAnObject },
  );
  const confirmBody = fc.oneof(
    { weight: 6, arbitrary: fc.record({ confirmed: orWrong(fc.boolean()) }, { requiredKeys: [] }).map(json) },
    { weight: 1, arbitrary: notAnObject },
  );
  return fc.oneof(
    fc.record({ conversation, body: messageBody }).map(
      ({ conversation, body }): RouteRequest => ({
        method: 'POST',
        path: `/api/agents/conversations/${conversation}/messages`,
        headers: { 'content-type': 'application/json' },
        body,
      }),
    ),
    fc.record({ conversation, body: confirmBody }).map(
      ({ conversation, body }): RouteRequest => ({
        method: 'POST',
        path: `/api/agents/conversations/${conversation}/confirm`,
        headers: { 'content-type': 'application/json' },
        body,
      }),
    ),
  );
}

// --- MCP: POST /mcp, JSON-RPC (tools/list, tools/call with generated arguments, batches) ---

/** A value for a tool argument's JSON Schema, mostly of its type, sometimes hostile or of another type. */
function schemaValueArb(
  schema: JsonSchema | undefined,
  pool: RoutePool,
  name: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  const value = ((): fc.Arbitrary<unknown> => {
    if (schema?.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), fc.constant('NOT_A_VALUE'));
    switch (type) {
      case 'string':
        return /id$/i.test(name) ? idIn(pool.ids) : textArb();
      case 'integer':
        return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(0, -1, 2_147_483_648, 1e21));
      case 'number':
        return fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(1e308, -0));
      case 'boolean':
        return fc.boolean();
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(schemaValueArb(schema?.items, pool, name.replace(/s$/, ''), depth + 1), { maxLength: 4 });
      case 'object': {
        if (depth > 3 || !schema?.properties) return fc.jsonValue({ maxDepth: 2 });
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, sub] of Object.entries(schema.properties))
          model[key] = schemaValueArb(sub, pool, key, depth + 1);
        return fc.record(model, { requiredKeys: schema.required?.filter((k) => k in model) ?? [] });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: wrongType });
}

function toolCallArb(pool: RoutePool): fc.Arbitrary<unknown> {
  const known = pool.tools.map((tool) =>
    schemaValueArb({ type: 'object', ...tool.inputSchema }, pool, 'arguments').map((args) => ({
      name: tool.name,
      arguments: args,
    })),
  );
  return fc.oneof(
    { weight: 8, arbitrary: known.length ? fc.oneof(...known) : fc.constant({ name: 'search', arguments: {} }) },
    {
      weight: 1,
      arbitrary: fc.record(
        { name: orWrong(textArb()), arguments: orWrong(fc.jsonValue({ maxDepth: 2 })) },
        { requiredKeys: [] },
      ),
    },
  );
}

function rpcMessageArb(pool: RoutePool): fc.Arbitrary<unknown> {
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 1000 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>('a', null, {}, [], 1.5, true) },
  );
  const call = fc.record({
    jsonrpc: fc.constant('2.0'),
    id,
    method: fc.constant('tools/call'),
    params: toolCallArb(pool),
  });
  const list = fc.record(
    { jsonrpc: fc.constant('2.0'), id, method: fc.constant('tools/list'), params: orWrong(fc.constant({})) },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  );
  const other = fc.record(
    {
      jsonrpc: fc.constantFrom<unknown>('2.0', '1.0', 2, null),
      id,
      method: fc.oneof(
        fc.constantFrom(
          'initialize',
          'ping',
          'resources/list',
          'prompts/get',
          'notifications/initialized',
          'tools/call',
        ),
        textArb(),
      ),
      params: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  );
  return fc.oneof({ weight: 6, arbitrary: call }, { weight: 2, arbitrary: list }, { weight: 2, arbitrary: other });
}

export function mcpRequestArb(pool: RoutePool): fc.Arbitrary<RouteRequest> {
  const body = fc.oneof(
    { weight: 8, arbitrary: rpcMessageArb(pool).map(json) },
    { weight: 2, arbitrary: fc.array(rpcMessageArb(pool), { minLength: 0, maxLength: 4 }).map(json) },
    // One past the 10 requests a batch may hold.
    {
      weight: 1,
      arbitrary: fc.constant(
        json(Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }))),
      ),
    },
    { weight: 1, arbitrary: notAnObject },
  );
  const accept = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json, text/event-stream') },
    { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/html', '') },
  );
  return fc.record({ body, accept, type: contentType }).map(
    ({ body, accept, type }): RouteRequest => ({
      method: 'POST',
      path: '/mcp',
      headers: { ...(type ? { 'content-type': type } : {}), ...(accept ? { accept } : {}) },
      body,
    }),
  );
}
