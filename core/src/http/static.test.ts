import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebApp } from './static.ts';

let dist: string;
let server: Server;
let base: string;

async function serve(dir: string): Promise<{ server: Server; url: string }> {
  const app = new Koa();
  app.use(serveWebApp(dir));
  const s = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => s.once('listening', () => r()));
  return { server: s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
}

const SCRIPT = `console.log(${JSON.stringify('Fieldbook '.repeat(200))})`;

/** A GET whose body comes back as sent: fetch would decode it and hide the encoding. */
function raw(
  path: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(
      `${base}${path}`,
      { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    ).on('error', reject);
  });
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'fieldbook-dist-'));
  mkdirSync(join(dist, 'static', 'js'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'index.html.br'), brotliCompressSync('<!doctype html><div id="root"></div>'));
  writeFileSync(join(dist, 'index.html.gz'), gzipSync('<!doctype html><div id="root"></div>'));
  writeFileSync(join(dist, 'static', 'js', 'app.4567cdef01.js'), SCRIPT);
  writeFileSync(join(dist, 'static', 'js', 'app.4567cdef01.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dist, 'static', 'js', 'app.4567cdef01.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dist, 'mf-manifest.json'), '{"id":"fieldbook"}');
  writeFileSync(join(dist, 'mf-manifest.json.gz'), gzipSync('{"id":"fieldbook"}'));
  writeFileSync(join(dist, 'static', 'js', 'index.0123abcd89.js'), 'console.log(1)');
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  writeFileSync(join(dist, '.build-stamp'), 'abc');
  ({ server, url: base } = await serve(dist));
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('serves hashed files for a year and others with revalidation', async () => {
    const js = await fetch(`${base}/static/js/index.0123abcd89.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(js.headers.get('cache-control')).toContain('immutable');
    const svg = await fetch(`${base}/favicon.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers app routes with index.html so the client router decides', async () => {
    for (const path of ['/', '/home', '/auth/login?next=%2Fhome', '/no/such/page', '/%E0%A4%A']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('id="root"');
    }
  });

  it('keeps real 404s for missing assets and unknown API paths, and hides dotfiles', async () => {
    expect((await fetch(`${base}/static/js/missing.js`)).status).toBe(404);
    expect((await fetch(`${base}/api/nothing`)).status).toBe(404);
    const stamp = await fetch(`${base}/.build-stamp`);
    expect(await stamp.text()).not.toBe('abc');
    // Paths never climb out of the build folder.
    const escape = await fetch(`${base}/static/..%2F..%2Fpackage.json`);
    expect(await escape.text()).not.toContain('"name"');
  });

  it('sends the brotli file beside an asset to browsers that accept brotli, and says it varies', async () => {
    const res = await raw('/static/js/app.4567cdef01.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip when brotli is not accepted, and the file as it is when nothing is', async () => {
    const gz = await raw('/static/js/app.4567cdef01.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    const refused = await raw('/static/js/app.4567cdef01.js', 'br;q=0, gzip;q=0.5');
    expect(refused.headers['content-encoding']).toBe('gzip');
    for (const accept of [undefined, 'identity', 'deflate']) {
      const plain = await raw('/static/js/app.4567cdef01.js', accept);
      expect(plain.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(plain.headers.vary, String(accept)).toMatch(/accept-encoding/i);
      expect(plain.body.toString(), String(accept)).toBe(SCRIPT);
    }
  });

  it('compresses index.html and remote manifests too, always revalidated', async () => {
    const page = await raw('/home', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.body).toString()).toContain('id="root"');
    const manifest = await raw('/mf-manifest.json', 'gzip, br');
    expect(manifest.headers['content-encoding']).toBe('gzip');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['content-type']).toContain('application/json');
    expect(gunzipSync(manifest.body).toString()).toBe('{"id":"fieldbook"}');
  });

  it('says how to build the app when it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'fieldbook-nodist-'));
    const s = await serve(empty);
    const res = await fetch(`${s.url}/home`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:web');
    await new Promise<void>((r) => s.server.close(() => r()));
    rmSync(empty, { recursive: true, force: true });
  });
});
