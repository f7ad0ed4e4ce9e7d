import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { INTERNAL_IPV4_RANGES, PluginPermissionError, type PluginHttp } from '@fieldbook/extensions-sdk/server';
import { UnapprovedPermissionError } from './unapproved.ts';

/** Addresses no plugin may reach unless the operator configured them: the host's own networks. */
const internalV4 = new BlockList();
// The same IPv4 ranges the SDK refuses in a manifest's `egress:` hosts.
for (const [net, prefix] of INTERNAL_IPV4_RANGES) internalV4.addSubnet(net, prefix, 'ipv4');

/** IPv6 ranges refused whole: the host's own, retired ones, and those standing for an IPv4 address. */
const internalV6 = new BlockList();
for (const [net, prefix] of [
  // IPv4-compatible (deprecated; holds :: and ::1) and IPv4-mapped: both reach an IPv4 address.
  ['::', 96],
  ['::ffff:0:0', 96],
  // IPv4-translated (SIIT).
  ['::ffff:0:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local: retired, but some networks still route it as their own.
  ['fec0::', 10],
  ['ff00::', 8],
  // Teredo tunnels to an IPv4 address it hides (XORed), so what it reaches cannot be checked.
  ['2001::', 32],
  // Local-use NAT64: a network's own translator, whatever IPv4 it carries.
  ['64:ff9b:1::', 48],
] as const) {
  internalV6.addSubnet(net, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (any spelling, a dotted IPv4 tail included). */
function ipv6Bytes(address: string): Uint8Array {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1]!.split('.').map(Number));
    text = `${text.slice(0, dotted.index)}0:0`; // two placeholder groups, replaced below
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '') : []);
  const left = groups(head);
  const right = rest === null ? [] : groups(rest);
  const all = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  if (tail.length) bytes.set(tail, 12);
  return bytes;
}

const v4At = (bytes: Uint8Array, at: number): string => Array.from(bytes.subarray(at, at + 4)).join('.');

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return internalV4.check(address, 'ipv4');
  if (internalV6.check(address, 'ipv6')) return true;
  const bytes = ipv6Bytes(address);
  // 6to4 (2002::/16) and well-known NAT64 (64:ff9b::/96) carry an IPv4 address, internal or not:
  // an IPv6-only network reaches every public IPv4 host through NAT64, so only internal ones are refused.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return internalV4.check(v4At(bytes, 2), 'ipv4');
  if (isWellKnownNat64(bytes)) return internalV4.check(v4At(bytes, 12), 'ipv4');
  return false;
}

const NAT64_PREFIX = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
const isWellKnownNat64 = (bytes: Uint8Array): boolean => NAT64_PREFIX.every((b, i) => bytes[i] === b);

const isLocalName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** A plugin's request to the host's own networks: refused whatever the plugin declared. */
export class InternalAddressError extends Error {
  constructor(
    readonly pluginId: string,
    readonly host: string,
  ) {
    super(`${host} is an internal address and can never be reached.`);
    this.name = 'InternalAddressError';
  }
}

export interface EgressPolicy {
  pluginId: string;
  /** Hosts from `egress:` permissions; each also allows its subdomains. */
  declaredHosts: readonly string[];
  /** Hosts the plugin declares that a workspace admin has not approved for the installation yet. */
  pendingHosts?: readonly string[];
  /** Origins of base URLs the operator configured: trusted as they are, internal or not. */
  trustedOrigins: readonly string[];
  /** Resolves a host name (replaceable in tests). */
  resolve?: (host: string) => Promise<string[]>;
  /** Sees each request that passed the checks, before it is sent (the SDK's test host records them). */
  onRequest?: PluginRequestHook;
  /**
   * Sends one checked request, without following redirects; `addresses` are those to connect to
   * (null: a configured origin, connected to as it is). Replaceable in tests.
   */
  send?: (url: URL, request: RequestInit, addresses: readonly string[] | null) => Promise<Response>;
}

/** A request a plugin made, as `onRequest` sees it. */
export interface PluginRequest {
  pluginId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export type PluginRequestHook = (request: PluginRequest) => void;

function describeRequest(pluginId: string, url: URL, init: RequestInit): PluginRequest {
  return {
    pluginId,
    method: (init.method ?? 'GET').toUpperCase(),
    url: url.toString(),
    headers: Object.fromEntries(new Headers(init.headers).entries()),
    body:
      typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : null,
  };
}

const MAX_REDIRECTS = 5;

async function resolveAll(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/**
 * A `lookup` for the connection that answers with the addresses already checked, whatever name it is
 * asked for: the name is resolved once, so it cannot resolve to a public address for the check and
 * to an internal one for the connection (DNS rebinding). The URL keeps its host name, so TLS and the
 * Host header are those of the name.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) (callback as (err: null, addresses: typeof entries) => void)(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

/** Headers that carry the caller's credentials: never sent on to another origin (as browsers and undici do). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * The only way a plugin reaches the network. A URL passes when its origin is one the operator
 * configured, or its host is one the plugin declared and every address it resolves to is public.
 * Redirects are followed by hand so each hop is checked the same way, with one difference: a
 * configured origin is trusted only when the plugin asked for it, or a configured origin sent it
 * there; a declared host cannot redirect into one (an open redirect would reach the operator's
 * internal services). Credentials are dropped on a hop to another origin.
 */
export function guardedHttp(policy: EgressPolicy): PluginHttp {
  const resolve = policy.resolve ?? resolveAll;
  const send =
    policy.send ??
    ((url, request, addresses) => (addresses ? pinnedFetch(url, request, addresses) : fetch(url, request)));
  const declared = policy.declaredHosts.map((h) => h.toLowerCase());
  const pending = (policy.pendingHosts ?? []).map((h) => h.toLowerCase());
  const isTrusted = (url: URL) => policy.trustedOrigins.includes(url.origin);
  /** Checks a URL; for a declared host, returns the public addresses to connect to (null: trusted). */
  const check = async (url: URL, from: URL | null): Promise<string[] | null> => {
    if (isTrusted(url) && (from === null || isTrusted(from))) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new PluginPermissionError(policy.pluginId, `egress:${host} (${url.protocol} is not allowed)`);
    const isDeclared = declared.some((d) => host === d || host.endsWith(`.${d}`));
    // No permission could make these reachable, so saying one is missing would send the plugin's
    // author after the wrong fix. (A declared name is resolved and checked below like any other.)
    if (isInternalAddress(host) || (!isDeclared && isLocalName(host)))
      throw new InternalAddressError(policy.pluginId, host);
    if (!isDeclared) {
      const waiting = pending.find((d) => host === d || host.endsWith(`.${d}`));
      if (waiting) throw new UnapprovedPermissionError(policy.pluginId, `egress:${waiting}`);
      throw new PluginPermissionError(policy.pluginId, `egress:${host}`);
    }
    const addresses = await resolve(host);
    if (addresses.length === 0 || addresses.some(isInternalAddress)) {
      throw new PluginPermissionError(policy.pluginId, `egress:${host} (it resolves to an internal address)`);
    }
    return addresses;
  };
  return {
    async fetch(input, init) {
      let url = new URL(String(input));
      let from: URL | null = null;
      let request: RequestInit = { ...init, redirect: 'manual' };
      for (let hop = 0; ; hop++) {
        const addresses = await check(url, from);
        policy.onRequest?.(describeRequest(policy.pluginId, url, request));
        const res = await send(url, request, addresses);
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        if (!location || init?.redirect === 'manual') return res;
        if (hop >= MAX_REDIRECTS) throw new Error(`Too many redirects from ${policy.pluginId}'s request`);
        from = url;
        url = new URL(location, url);
        // A 303 (and a POST answered 301/302) continues as GET without a body, as browsers do.
        if (
          res.status === 303 ||
          ((res.status === 301 || res.status === 302) && request.method && request.method !== 'GET')
        ) {
          request = { ...request, method: 'GET', body: undefined };
        }
        if (url.origin !== from.origin) {
          const headers = new Headers(request.headers);
          for (const name of CREDENTIAL_HEADERS) headers.delete(name);
          request = { ...request, headers };
        }
      }
    },
  };
}

/** Fetches over a connection to one of `addresses`; the agent closes once the response is read. */
async function pinnedFetch(url: URL, request: RequestInit, addresses: readonly string[]): Promise<Response> {
  // undici loads with plugins' first outbound request, not with every start.
  const { Agent } = await import('undici');
  const agent = new Agent({ connect: { lookup: pinnedLookup(addresses) } });
  try {
    // Node's fetch takes an undici dispatcher of the same major version as its own.
    return await fetch(url, { ...request, dispatcher: agent } as RequestInit);
  } finally {
    // Graceful: requests under way (the body still streaming) finish first.
    void agent.close();
  }
}
