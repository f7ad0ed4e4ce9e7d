import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { round } from './support.ts';

export interface LoadResult {
  name: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests answered during the measured run. */
  requests: number;
  /** Responses that were not 2xx, and socket errors: a run with either measured something else. */
  non2xx: number;
  errors: number;
}

export interface LoadTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

const root = join(import.meta.dirname, '..');

/**
 * Runs autocannon as a process of its own, so the load generator does not share the event loop
 * of the server it measures.
 */
export async function measure(target: LoadTarget, opts: { connections: number; seconds: number }): Promise<LoadResult> {
  // A short unmeasured run first, so JIT warm-up and pool growth do not count against the target.
  await autocannon(target, { connections: opts.connections, seconds: 2 });
  return autocannon(target, opts);
}

export function autocannon(target: LoadTarget, opts: { connections: number; seconds: number }): Promise<LoadResult> {
  const args = [
    join(root, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(opts.connections),
    '-d',
    String(opts.seconds),
  ];
  if (target.method) args.push('-m', target.method);
  for (const [k, v] of Object.entries(target.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (target.body) args.push('-b', target.body);
  args.push(target.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err.slice(-1000)}`));
      const r = JSON.parse(out) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
      };
      resolve({
        name: target.name,
        reqPerSec: round(r.requests.average, 0),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        requests: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors,
      });
    });
  });
}

/** The floor to compare with: one Koa route answering a small JSON body, nothing else. */
export async function startBareKoa(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  const router = new Router();
  router.get('/hello', (ctx) => {
    ctx.body = { ok: true };
  });
  // The same HTTP work as a GraphQL request: a JSON body read in full, a JSON answer.
  router.post('/hello', async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: string };
    ctx.body = { data: { echo: body.query?.length ?? 0 } };
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hello`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
