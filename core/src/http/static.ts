import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type Koa from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Precompressed files the build writes beside an asset, in the order the server prefers them. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

const HASHED = /\.[0-9a-f]{8,}\./;

/** The weight `accept-encoding` gives `name` (its own, else `*`'s, else 0). */
function weightOf(acceptEncoding: string, name: string): number {
  let wildcard = 0;
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) || 0 : 1;
    if (coding.trim() === name) return weight;
    if (coding.trim() === '*') wildcard = weight;
  }
  return wildcard;
}

/**
 * Sends `file` with its type and caching, choosing the precompressed `.br` or `.gz` beside it when
 * the browser accepts that encoding (the build writes them, so nothing is compressed per request).
 * Content-hashed files are cached for a year; everything else (index.html, remote manifests) is
 * revalidated so a new release is picked up at once.
 */
async function sendFile(ctx: Koa.Context, file: string): Promise<void> {
  ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
  ctx.set('cache-control', HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
  const variants = ENCODINGS.filter((e) => existsSync(file + e.suffix));
  if (variants.length) {
    // Caches must keep one copy per encoding, whichever this answer is.
    ctx.vary('accept-encoding');
    // The heaviest accepted encoding; between equals (browsers list gzip before br), the smaller br.
    const accept = ctx.get('accept-encoding');
    let variant: (typeof variants)[number] | undefined;
    for (const v of variants)
      if (weightOf(accept, v.name) > (variant ? weightOf(accept, variant.name) : 0)) variant = v;
    if (variant) {
      ctx.set('content-encoding', variant.name);
      ctx.body = await readFile(file + variant.suffix);
      return;
    }
  }
  // Built files are small; reading them whole avoids stream errors when a browser cancels.
  ctx.body = await readFile(file);
}

/**
 * Answers with a file under `root` when `path` names one; false otherwise. Dotfiles (the build
 * stamp) are bookkeeping and never served, nor is anything outside `root`.
 */
export async function sendStaticFile(ctx: Koa.Context, root: string, path: string): Promise<boolean> {
  const file = join(root, path);
  const hidden = path.split(/[/\\]/).some((part) => part.startsWith('.'));
  if (!path || hidden || !file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return false;
  await sendFile(ctx, file);
  return true;
}

/**
 * Serves the built web app: its files (compressed when the build compressed them, hashed ones
 * cached for a year), and index.html for every other GET so the client router can show the page,
 * or its not-found screen.
 */
export function serveWebApp(distDir: string): Koa.Middleware {
  const index = join(distDir, 'index.html');
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    let decoded: string;
    try {
      decoded = decodeURIComponent(ctx.path);
    } catch {
      decoded = '/'; // a malformed address is no file: the app shows its not-found page
    }
    const path = normalize(decoded).replace(/^([/\\])+/, '');
    // The API never falls back to the web app: an unknown API path is a plain 404.
    if (path === 'api' || path.startsWith('api/')) return next();
    if (await sendStaticFile(ctx, distDir, path)) return;
    if (extname(path) && path.startsWith('static/')) return next(); // a missing asset is a real 404
    if (!existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet. Run `npm run build:web`, then reload.';
      return;
    }
    await sendFile(ctx, index);
  };
}
