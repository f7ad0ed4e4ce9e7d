import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the part of Typesense's HTTP API the search engine calls: collections
 * (create, retrieve, update), documents (import with action=upsert, delete by filter_by) and
 * multi_search (q, query_by, prefix, filter_by, sort_by, per_page, page, highlight tags,
 * exclude_fields), every request authenticated by the `X-TYPESENSE-API-KEY` header.
 *
 * It holds the engine to the server's rules where a slip would fail against a real one: filter,
 * sort and query fields must be declared in the collection schema, documents must match their
 * declared types, and `filter_by` is parsed with the grammar Typesense documents (`&&`, `||`,
 * parentheses, `:`, `:=`, `:!=`, `:>`, `:<`, `:>=`, `:<=`, `[a,b]` lists, backtick-quoted values).
 * Matching follows Typesense's: strings compare after normalisation (case, accents and
 * punctuation ignored), `:` matches words, queries tolerate typos by word length.
 */
interface Field {
  name: string;
  type: string;
  optional?: boolean;
  facet?: boolean;
  sort?: boolean;
  index?: boolean;
}

interface Collection {
  name: string;
  fields: Field[];
  default_sorting_field?: string;
  docs: Map<string, Record<string, unknown>>;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface TypesenseFake {
  url: string;
  apiKey: string;
  requests: FakeRequest[];
  collections: Map<string, Collection>;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `keepRequests: false` keeps no request log (a benchmark's million documents would fill memory). */
export async function startTypesenseFake(
  apiKey = 'fake-admin-key',
  options: { keepRequests?: boolean } = {},
): Promise<TypesenseFake> {
  const collections = new Map<string, Collection>();
  const requests: FakeRequest[] = [];
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      send(res, status, { message: err instanceof Error ? err.message : String(err) });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    const query = Object.fromEntries(url.searchParams.entries());
    const contentType = req.headers['content-type'] ?? '';
    const body =
      raw && !url.pathname.endsWith('/import') && String(contentType).includes('json')
        ? (JSON.parse(raw) as unknown)
        : raw;
    if (options.keepRequests !== false) requests.push({ method: req.method ?? 'GET', path: url.pathname, query, body });
    if (req.headers['x-typesense-api-key'] !== apiKey)
      throw new HttpError(401, 'Forbidden - a valid `x-typesense-api-key` header must be sent.');

    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method === 'POST' && parts.length === 1 && parts[0] === 'collections')
      return send(res, 201, createCollection(body));
    if (req.method === 'POST' && parts.length === 1 && parts[0] === 'multi_search')
      return send(res, 200, multiSearch(body, query));
    if (parts[0] !== 'collections' || parts.length < 2) throw new HttpError(404, 'Not Found');
    const collection = collections.get(parts[1]!);
    if (!collection) throw new HttpError(404, `Collection \`${parts[1]}\` not found.`);
    if (parts.length === 2 && req.method === 'GET') return send(res, 200, describe(collection));
    if (parts.length === 2 && req.method === 'PATCH') return send(res, 200, updateCollection(collection, body));
    if (parts[2] === 'documents' && parts[3] === 'import' && req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(importDocuments(collection, raw, query.action ?? 'create'));
      return;
    }
    if (parts[2] === 'documents' && parts.length === 3 && req.method === 'DELETE') {
      if (!query.filter_by) throw new HttpError(400, 'Parameter `filter_by` must be provided.');
      const test = compileFilter(collection, query.filter_by);
      let deleted = 0;
      for (const [id, doc] of collection.docs) {
        if (test(doc)) {
          collection.docs.delete(id);
          deleted += 1;
        }
      }
      return send(res, 200, { num_deleted: deleted });
    }
    throw new HttpError(404, 'Not Found');
  }

  function createCollection(body: unknown): object {
    const schema = body as { name?: string; fields?: Field[]; default_sorting_field?: string };
    if (!schema.name || !Array.isArray(schema.fields)) throw new HttpError(400, 'Bad collection schema.');
    if (collections.has(schema.name))
      throw new HttpError(409, `A collection with name \`${schema.name}\` already exists.`);
    if (
      schema.default_sorting_field &&
      !schema.fields.some((f) => f.name === schema.default_sorting_field && /int|float/.test(f.type))
    ) {
      throw new HttpError(400, `Default sorting field \`${schema.default_sorting_field}\` must be a numerical field.`);
    }
    const collection: Collection = { name: schema.name, fields: schema.fields, docs: new Map() };
    if (schema.default_sorting_field) collection.default_sorting_field = schema.default_sorting_field;
    collections.set(schema.name, collection);
    return describe(collection);
  }

  function updateCollection(collection: Collection, body: unknown): object {
    const fields = (body as { fields?: Field[] }).fields ?? [];
    for (const field of fields) {
      if (collection.fields.some((f) => f.name === field.name))
        throw new HttpError(400, `Field \`${field.name}\` is already part of the schema.`);
      collection.fields.push(field);
    }
    return { fields };
  }

  function importDocuments(collection: Collection, raw: string, action: string): string {
    const lines = raw.split('\n').filter((l) => l.trim() !== '');
    return lines
      .map((line) => {
        try {
          const doc = JSON.parse(line) as Record<string, unknown>;
          if (typeof doc.id !== 'string') throw new Error('Document must have a string `id`.');
          validateDocument(collection, doc);
          if (action === 'create' && collection.docs.has(doc.id)) throw new Error('A document with id already exists.');
          collection.docs.set(doc.id, doc);
          return JSON.stringify({ success: true });
        } catch (err) {
          return JSON.stringify({ success: false, error: (err as Error).message, document: line });
        }
      })
      .join('\n');
  }

  function multiSearch(body: unknown, common: Record<string, string>): object {
    const searches = (body as { searches?: Array<Record<string, unknown>> }).searches ?? [];
    return {
      results: searches.map((params) => {
        try {
          return searchOne({ ...common, ...params });
        } catch (err) {
          return { code: err instanceof HttpError ? err.status : 500, error: (err as Error).message };
        }
      }),
    };
  }

  function searchOne(params: Record<string, unknown>): object {
    const collection = collections.get(String(params.collection));
    if (!collection)
      throw new HttpError(404, `Could not find a collection with name \`${String(params.collection)}\`.`);
    const q = String(params.q ?? '');
    const queryBy = String(params.query_by ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (queryBy.length === 0) throw new HttpError(400, 'No search fields specified for the query.');
    for (const name of queryBy) {
      const field = fieldOf(collection, name);
      if (!field || !field.type.startsWith('string') || field.index === false)
        throw new HttpError(400, `Could not find a field named \`${name}\` in the schema.`);
    }
    const filter = params.filter_by ? compileFilter(collection, String(params.filter_by)) : () => true;
    const prefix = String(params.prefix ?? 'true') !== 'false';
    const matcher = q === '*' ? null : queryMatcher(q, prefix);
    const hits: Array<{ doc: Record<string, unknown>; score: number; marked: Map<string, Set<string>> }> = [];
    for (const doc of collection.docs.values()) {
      if (!filter(doc)) continue;
      if (!matcher) {
        hits.push({ doc, score: 0, marked: new Map() });
        continue;
      }
      const match = matcher(queryBy.map((f) => [f, typeof doc[f] === 'string' ? (doc[f] as string) : '']));
      if (match) hits.push({ doc, ...match });
    }
    const sorts = parseSortBy(collection, String(params.sort_by ?? (q === '*' ? '' : '_text_match:desc')));
    hits.sort((a, b) => {
      for (const s of sorts) {
        const av = s.field === '_text_match' ? a.score : a.doc[s.field];
        const bv = s.field === '_text_match' ? b.score : b.doc[s.field];
        const result = compareValues(av, bv, s.desc, s.missingFirst);
        if (result !== 0) return result;
      }
      return 0;
    });
    const perPage = Math.min(250, Number(params.per_page ?? 10));
    const page = Math.max(1, Number(params.page ?? 1));
    const exclude = new Set(
      String(params.exclude_fields ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    const start = String(params.highlight_start_tag ?? '<mark>');
    const end = String(params.highlight_end_tag ?? '</mark>');
    const slice = hits.slice((page - 1) * perPage, page * perPage);
    return {
      found: hits.length,
      out_of: collection.docs.size,
      page,
      request_params: { collection_name: collection.name, per_page: perPage, q },
      hits: slice.map((h) => {
        const highlights = [...h.marked.entries()].map(([field, tokens]) => ({
          field,
          snippet: snippet(String(h.doc[field] ?? ''), tokens, start, end),
          matched_tokens: [...tokens],
        }));
        return {
          document: Object.fromEntries(Object.entries(h.doc).filter(([k]) => !exclude.has(k))),
          text_match: h.score,
          highlights,
          highlight: Object.fromEntries(
            highlights.map((x) => [x.field, { snippet: x.snippet, matched_tokens: x.matched_tokens }]),
          ),
        };
      }),
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    collections,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function describe(c: Collection): object {
  return {
    name: c.name,
    fields: c.fields,
    default_sorting_field: c.default_sorting_field ?? '',
    num_documents: c.docs.size,
    created_at: 0,
  };
}

/** A declared field by exact name, or by a field whose name is a regular expression matching it. */
function fieldOf(c: Collection, name: string): Field | undefined {
  return (
    c.fields.find((f) => f.name === name) ??
    c.fields.find((f) => /[.*]/.test(f.name) && new RegExp(`^${f.name}$`).test(name))
  );
}

function validateDocument(c: Collection, doc: Record<string, unknown>): void {
  for (const field of c.fields) {
    if (/[.*]/.test(field.name)) continue;
    if (!(field.name in doc) && !field.optional)
      throw new Error(`Field \`${field.name}\` has been declared in the schema, but is not found in the document.`);
  }
  for (const [name, value] of Object.entries(doc)) {
    if (name === 'id') continue;
    const field = fieldOf(c, name);
    if (!field) continue;
    const ok =
      field.type === 'string'
        ? typeof value === 'string'
        : field.type === 'string[]'
          ? Array.isArray(value) && value.every((v) => typeof v === 'string')
          : field.type === 'int64' || field.type === 'int32'
            ? Number.isInteger(value)
            : field.type === 'float'
              ? typeof value === 'number'
              : field.type === 'bool'
                ? typeof value === 'boolean'
                : true;
    if (!ok)
      throw new Error(
        `Field \`${name}\` must be ${field.type === 'string[]' ? 'an array of strings' : `a ${field.type}`}.`,
      );
  }
}

/** Typesense's normalisation: accents and case dropped, punctuation read as a word break. */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const tokensOf = (text: string): string[] => normalize(text).split(' ').filter(Boolean);

// ---------- filter_by ----------

type Test = (doc: Record<string, unknown>) => boolean;

function compileFilter(c: Collection, text: string): Test {
  let pos = 0;
  const fail = (message: string): never => {
    throw new HttpError(400, `Could not parse the filter query: ${message} at ${pos} in \`${text}\`.`);
  };
  const ws = (): void => {
    while (text[pos] === ' ') pos += 1;
  };
  const peek = (s: string): boolean => text.startsWith(s, pos);

  function expr(): Test {
    let left = conj();
    ws();
    while (peek('||')) {
      pos += 2;
      const right = conj();
      const l = left;
      left = (d) => l(d) || right(d);
      ws();
    }
    return left;
  }
  function conj(): Test {
    let left = term();
    ws();
    while (peek('&&')) {
      pos += 2;
      const right = term();
      const l = left;
      left = (d) => l(d) && right(d);
      ws();
    }
    return left;
  }
  function term(): Test {
    ws();
    if (peek('(')) {
      pos += 1;
      const inner = expr();
      ws();
      if (!peek(')')) fail('expected )');
      pos += 1;
      return inner;
    }
    const nameMatch = /^[A-Za-z_][\w.]*/.exec(text.slice(pos));
    if (!nameMatch) return fail('expected a field name');
    const name = nameMatch[0];
    pos += name.length;
    ws();
    if (!peek(':')) fail('expected :');
    pos += 1;
    ws();
    const op = (['>=', '<=', '!=', '=', '>', '<'] as const).find((o) => peek(o)) ?? ':';
    if (op !== ':') pos += op.length;
    ws();
    const values = peek('[') ? list() : [scalar()];
    const field = fieldOf(c, name);
    if (!field || field.index === false)
      throw new HttpError(404, `Could not find a filter field named \`${name}\` in the schema.`);
    return leaf(field, name, op, values);
  }
  function list(): string[] {
    pos += 1;
    const out: string[] = [];
    ws();
    while (!peek(']')) {
      out.push(scalar());
      ws();
      if (peek(',')) pos += 1;
      else if (!peek(']')) fail('expected , or ]');
      ws();
    }
    pos += 1;
    return out;
  }
  function scalar(): string {
    ws();
    if (peek('`')) {
      const close = text.indexOf('`', pos + 1);
      if (close < 0) fail('unclosed backtick');
      const value = text.slice(pos + 1, close);
      pos = close + 1;
      return value;
    }
    const m = /^[^\s,\])&|]+/.exec(text.slice(pos));
    if (!m) return fail('expected a value');
    pos += m[0].length;
    return m[0];
  }

  const test = expr();
  ws();
  if (pos !== text.length) fail('unexpected text');
  return test;
}

function leaf(field: Field, name: string, op: string, values: string[]): Test {
  const numeric = /int|float/.test(field.type);
  const bool = field.type.startsWith('bool');
  if ((op === '>' || op === '<' || op === '>=' || op === '<=') && !numeric) {
    throw new HttpError(400, `Range filters are only supported on numerical fields: \`${name}\`.`);
  }
  const one = (item: unknown, value: string): boolean => {
    if (numeric) {
      const n = Number(value);
      if (Number.isNaN(n)) throw new HttpError(400, `Value of filter field \`${name}\` must be a number.`);
      const x = Number(item);
      return op === '>' ? x > n : op === '<' ? x < n : op === '>=' ? x >= n : op === '<=' ? x <= n : x === n;
    }
    if (bool) return String(item) === value;
    if (op === ':') {
      const have = tokensOf(String(item));
      return tokensOf(value).every((t) => have.includes(t));
    }
    return normalize(String(item)) === normalize(value);
  };
  const matches = (doc: Record<string, unknown>): boolean => {
    const raw = doc[name];
    if (raw === undefined || raw === null) return false;
    const items = Array.isArray(raw) ? raw : [raw];
    return values.some((v) => items.some((item) => one(item, v)));
  };
  // `!=` is the complement of `=` over every document, those without the field included.
  return op === '!=' ? (doc) => !matches(doc) : matches;
}

// ---------- sort_by ----------

interface Sort {
  field: string;
  desc: boolean;
  missingFirst: boolean;
}

function parseSortBy(c: Collection, text: string): Sort[] {
  const sorts: Sort[] = [];
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([\w.]+)(?:\(missing_values:\s*(first|last)\))?:(asc|desc)$/i.exec(part);
    if (!m) throw new HttpError(400, `Bad syntax for sorting field \`${part}\`.`);
    const name = m[1]!;
    if (name !== '_text_match') {
      const field = fieldOf(c, name);
      const sortable =
        field && (/int|float/.test(field.type) ? field.sort !== false : field.type === 'string' && field.sort === true);
      if (!sortable) throw new HttpError(404, `Could not find a field named \`${name}\` in the schema for sorting.`);
    }
    sorts.push({ field: name, desc: m[3]!.toLowerCase() === 'desc', missingFirst: m[2]?.toLowerCase() === 'first' });
  }
  if (sorts.length > 3) throw new HttpError(400, 'Only upto 3 sort_by fields can be specified.');
  return sorts;
}

function compareValues(a: unknown, b: unknown, desc: boolean, missingFirst: boolean): number {
  const am = a === undefined || a === null;
  const bm = b === undefined || b === null;
  if (am || bm) return am === bm ? 0 : (am ? 1 : -1) * (missingFirst ? -1 : 1);
  const base =
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return desc ? -base : base;
}

// ---------- q ----------

/** Typos Typesense tolerates by default: one from 4 characters, two from 7. */
const typosFor = (token: string): number => (token.length >= 7 ? 2 : token.length >= 4 ? 1 : 0);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

type Matcher = (fields: Array<[string, string]>) => { score: number; marked: Map<string, Set<string>> } | null;

function queryMatcher(q: string, prefix: boolean): Matcher {
  const phrases: string[][] = [];
  const rest = q.replace(/"([^"]*)"/g, (_, phrase: string) => {
    phrases.push(tokensOf(phrase));
    return ' ';
  });
  const words = tokensOf(rest);
  return (fields) => {
    const marked = new Map<string, Set<string>>();
    const mark = (field: string, token: string): void => {
      const set = marked.get(field) ?? new Set<string>();
      set.add(token);
      marked.set(field, set);
    };
    let score = 0;
    for (const phrase of phrases) {
      const found = fields.find(([, value]) => ` ${tokensOf(value).join(' ')} `.includes(` ${phrase.join(' ')} `));
      if (!found) return null;
      for (const t of phrase) mark(found[0], t);
      score += 3 * phrase.length;
    }
    for (const [i, word] of words.entries()) {
      const isPrefix = prefix && i === words.length - 1;
      let best = 0;
      fields.forEach(([field, value], f) => {
        for (const token of tokensOf(value)) {
          const s =
            token === word
              ? 3
              : isPrefix && token.startsWith(word)
                ? 2
                : typosFor(word) > 0 && distance(token, word) <= typosFor(word)
                  ? 1
                  : 0;
          if (s > 0) {
            mark(field, token);
            best = Math.max(best, s * (fields.length - f));
          }
        }
      });
      if (best === 0) return null;
      score += best;
    }
    return { score, marked };
  };
}

/** The field's text with matched words wrapped in the tags, cut around the first match when long. */
function snippet(text: string, tokens: Set<string>, start: string, end: string): string {
  const words = text.split(/(\s+)/);
  const marked = words.map((w) => (w.trim() && tokensOf(w).some((t) => tokens.has(t)) ? `${start}${w}${end}` : w));
  const first = marked.findIndex((w) => w.startsWith(start));
  if (words.length <= 61 || first < 0) return marked.join('');
  return marked.slice(Math.max(0, first - 16), first + 16).join('');
}
