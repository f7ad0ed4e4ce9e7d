import type Koa from 'koa';

/**
 * The address of the client behind a request, for per-address limits.
 *
 * `X-Forwarded-For` is written by whoever sent the request, so only the entries appended by our
 * own proxies can be believed: with `trustedProxies` proxies in front, the client is the entry
 * that many places from the right (each proxy appends the address it received the request from).
 * With none, the socket's peer is the client and the header is ignored, so nobody can pick a fresh
 * address per attempt by writing the header themselves. (Koa's own `ctx.ip` takes the leftmost
 * entry, which the client controls, hence not used here.)
 */
export function clientAddress(koa: Koa.Context, trustedProxies: number): string {
  const peer = normalise(koa.req.socket.remoteAddress ?? 'unknown');
  if (trustedProxies <= 0) return peer;
  const forwarded = (koa.get('x-forwarded-for') || '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  // Fewer entries than proxies: the request skipped a proxy; the leftmost is the best we know.
  const entry = forwarded[forwarded.length - trustedProxies] ?? forwarded[0];
  return entry ? normalise(entry) : peer;
}

/** IPv4 addresses reach a dual-stack socket as `::ffff:1.2.3.4`; one client, one key. */
function normalise(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}
