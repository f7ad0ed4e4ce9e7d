import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { INTERNAL_IPV4_RANGES, PluginPermissionError, type PluginHttp } from '@fieldbook/extensions-sdk/server';

/** Addresses no plugin may reach unless the operator configured them: the host's own networks. */
const internal = new BlockList();
// The same IPv4 ranges the SDK refuses in a manifest's `egress:` hosts.
for (const [net, prefix] of INTERNAL_IPV4_RANGES) internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64 (well-known and local-use) and 6to4 embed an IPv4 address, which may be an internal one.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = family === 6 && address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : null;
  if (mapped && isIP(mapped) === 4) return internal.check(mapped, 'ipv4');
  return internal.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

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
  /** Origins of base URLs the operator configured: trusted as they are, internal or not. */
  trustedOrigins: readonly string[];
  /** Resolves a host name (replaceable in tests). */
  resolve?: (host: string) => Promise<string[]>;
  /** Sees each request that passed the checks, before it is sent (the SDK's test host records them). */
  onRequest?: PluginRequestHook;
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

/**
 * The only way a plugin reaches the network. A URL passes when its origin is one the operator
 * configured, or its host is one the plugin declared and every address it resolves to is public.
 * Redirects are followed by hand so each hop is checked the same way.
 */
export function guardedHttp(policy: EgressPolicy): PluginHttp {
  const resolve = policy.resolve ?? resolveAll;
  const declared = policy.declaredHosts.map((h) => h.toLowerCase());
  /** Checks a URL; for a declared host, returns the public addresses to connect to (null: trusted). */
  const check = async (url: URL): Promise<string[] | null> => {
    if (policy.trustedOrigins.includes(url.origin)) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new PluginPermissionError(policy.pluginId, `egress:${host} (${url.protocol} is not allowed)`);
    const isDeclared = declared.some((d) => host === d || host.endsWith(`.${d}`));
    // No permission could make these reachable, so saying one is missing would send the plugin's
    // author after the wrong fix. (A declared name is resolved and checked below like any other.)
    if (isInternalAddress(host) || (!isDeclared && isLocalName(host)))
      throw new InternalAddressError(policy.pluginId, host);
    if (!isDeclared) throw new PluginPermissionError(policy.pluginId, `egress:${host}`);
    const addresses = await resolve(host);
    if (addresses.length === 0 || addresses.some(isInternalAddress)) {
      throw new PluginPermissionError(policy.pluginId, `egress:${host} (it resolves to an internal address)`);
    }
    return addresses;
  };
  return {
    async fetch(input, init) {
      let url = new URL(String(input));
      let request: RequestInit = { ...init, redirect: 'manual' };
      for (let hop = 0; ; hop++) {
        const addresses = await check(url);
        policy.onRequest?.(describeRequest(policy.pluginId, url, request));
        const res = addresses ? await pinnedFetch(url, request, addresses) : await fetch(url, request);
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        if (!location || init?.redirect === 'manual') return res;
        if (hop >= MAX_REDIRECTS) throw new Error(`Too many redirects from ${policy.pluginId}'s request`);
        url = new URL(location, url);
        // A 303 (and a POST answered 301/302) continues as GET without a body, as browsers do.
        if (
          res.status === 303 ||
          ((res.status === 301 || res.status === 302) && request.method && request.method !== 'GET')
        ) {
          request = { ...request, method: 'GET', body: undefined };
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
