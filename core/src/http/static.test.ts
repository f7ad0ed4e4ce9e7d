import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'fieldbook-dist-'));
  mkdirSync(join(dist, 'static', 'js'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
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
