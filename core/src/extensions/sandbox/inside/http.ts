/**
 * Headers and Response for what `ctx.http.fetch` answers: the host made the request through the
 * plugin's egress policy, and only status, headers and body bytes come back in.
 */
import { Buffer } from 'buffer';
import type { CrossingRequest, CrossingResponse } from '../codec.ts';

type HeadersInit = Headers | Array<[string, string]> | Record<string, string>;

export class Headers {
  private readonly map = new Map<string, string>();
  constructor(init?: HeadersInit) {
    if (!init) return;
    const pairs = init instanceof Headers ? [...init.entries()] : Array.isArray(init) ? init : Object.entries(init);
    for (const [k, v] of pairs) this.append(k, v);
  }
  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const prior = this.map.get(key);
    this.map.set(key, prior === undefined ? String(value) : `${prior}, ${value}`);
  }
  set(name: string, value: string): void {
    this.map.set(name.toLowerCase(), String(value));
  }
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }
  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }
  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }
  keys(): IterableIterator<string> {
    return this.map.keys();
  }
  values(): IterableIterator<string> {
    return this.map.values();
  }
  forEach(fn: (value: string, key: string) => void): void {
    this.map.forEach((v, k) => fn(v, k));
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}

/** What a plugin reads from `response.body`: a ReadableStream's reading methods over bytes already here. */
export class BodyStream {
  private reader: BodyReader | null = null;
  constructor(private readonly take: () => Buffer) {}
  get locked(): boolean {
    return this.reader !== null;
  }
  getReader(): BodyReader {
    if (this.reader) throw new TypeError('The body is already locked to a reader.');
    this.reader = new BodyReader(this.take());
    return this.reader;
  }
  async cancel(): Promise<void> {
    if (!this.reader) this.getReader();
    await this.reader!.cancel();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    const reader = this.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) yield part.value;
  }
}

export class BodyReader {
  private chunk: Uint8Array | null;
  constructor(bytes: Buffer) {
    this.chunk = bytes.byteLength ? new Uint8Array(bytes) : null;
  }
  async read(): Promise<{ done: false; value: Uint8Array } | { done: true; value: undefined }> {
    const value = this.chunk;
    this.chunk = null;
    return value ? { done: false, value } : { done: true, value: undefined };
  }
  async cancel(): Promise<void> {
    this.chunk = null;
  }
  releaseLock(): void {}
}

export class Response {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: Headers;
  readonly ok: boolean;
  readonly redirected = false;
  private readonly payload: Buffer;
  bodyUsed = false;

  constructor(
    body: string | Uint8Array | null = null,
    init: { status?: number; statusText?: string; headers?: HeadersInit; url?: string } = {},
  ) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.url = init.url ?? '';
    this.headers = new Headers(init.headers);
    this.ok = this.status >= 200 && this.status < 300;
    this.payload =
      body === null ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  }

  static fromCrossing(res: CrossingResponse): Response {
    return new Response(res.body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
      url: res.url,
    });
  }

  private consume(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body has already been consumed.');
    this.bodyUsed = true;
    return this.payload;
  }
  private stream: BodyStream | null = null;
  /**
   * The body as a one-chunk stream, for plugins that read a download as they would from Node's fetch
   * (`getReader()`, `for await`, `cancel()`): the bytes already crossed whole, within the sandbox's
   * response size limit, so there is nothing to stream but the API.
   */
  get body(): BodyStream {
    this.stream ??= new BodyStream(() => this.consume());
    return this.stream;
  }
  async text(): Promise<string> {
    return this.consume().toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.consume();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(this.consume());
  }
}

/** A request as plugins build them to pass to `ctx.http.fetch`; only its parts cross, never a stream. */
export class Request {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: RequestInitLike['body'];
  readonly redirect: RequestInitLike['redirect'];

  constructor(input: string | URL | Request, init: RequestInitLike = {}) {
    const base = input instanceof Request ? input : null;
    this.url = base ? base.url : String(input);
    this.method = (init.method ?? base?.method ?? 'GET').toUpperCase();
    this.headers = new Headers(init.headers ?? base?.headers);
    this.body = init.body ?? base?.body ?? null;
    this.redirect = init.redirect ?? base?.redirect;
  }

  async text(): Promise<string> {
    const b = this.body;
    return b === null || b === undefined
      ? ''
      : typeof b === 'string'
        ? b
        : b instanceof URLSearchParams
          ? b.toString()
          : Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('utf8');
  }
}

interface RequestInitLike {
  method?: string;
  headers?: HeadersInit;
  body?: string | Uint8Array | URLSearchParams | ArrayBuffer | null;
  redirect?: 'follow' | 'manual' | 'error';
}

/** A fetch init as it crosses to the host; bodies other than text, bytes and form fields are refused. */
export function crossingRequest(init: RequestInitLike = {}): CrossingRequest {
  const body = init.body ?? null;
  let crossing: string | Uint8Array | null;
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) crossing = body;
  else if (body instanceof ArrayBuffer) crossing = new Uint8Array(body);
  else if (body instanceof URLSearchParams) crossing = body.toString();
  else throw new TypeError('A sandboxed plugin sends text, bytes or URLSearchParams as a request body.');
  const headers = new Headers(init.headers);
  if (body instanceof URLSearchParams && !headers.has('content-type'))
    headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  return { method: init.method, headers: [...headers.entries()], body: crossing, redirect: init.redirect };
}
