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

/**
 * Answers with a file under `root` when `path` names one; false otherwise. Dotfiles (the build
 * stamp) are bookkeeping and never served, nor is anything outside `root`.
 */
export async function sendStaticFile(ctx: Koa.Context, root: string, path: string): Promise<boolean> {
  const file = join(root, path);
  const hidden = path.split(/[/\\]/).some((part) => part.startsWith('.'));
  if (!path || hidden || !file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return false;
  ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
  ctx.set('cache-control', /\.[0-9a-f]{8,}\./.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
  // Built files are small; reading them whole avoids stream errors when a browser cancels.
  ctx.body = await readFile(file);
  return true;
}

/**
 * Serves the built web app: files as they are (hashed ones cached for a year), and index.html
 * for every other GET so the client router can show the page, or its not-found screen.
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
    ctx.type = TYPES['.html']!;
    ctx.set('cache-control', 'no-cache');
    ctx.body = await readFile(index);
  };
}
