/**
 * Hosts a plugin can never reach, whatever it declares: the machine Fieldbook runs on and its
 * private networks. The host refuses them at run time after resolving names (core's egress
 * policy); the manifest refuses them up front so that a plugin asking for one fails when it
 * loads, with the reason, rather than at its first request.
 */

/** IPv4 ranges that are never the public internet, as [network, prefix length]; the host's egress policy blocks the same. */
export const INTERNAL_IPV4_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4Number(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/**
 * Why a host named in `egress:` can never be reached, or null when it may be: an IPv4 address in
 * a loopback, private, link-local, shared or reserved range, or a name for this machine or its
 * local network (`localhost`, `*.localhost`, `*.local`, `*.internal`).
 */
export function internalHostProblem(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  const n = v4Number(name);
  if (n !== null) {
    const inside = INTERNAL_IPV4_RANGES.some(([net, prefix]) => {
      const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
      return (n & mask) >>> 0 === (v4Number(net)! & mask) >>> 0;
    });
    return inside ? `${host} is an internal address and can never be reached.` : null;
  }
  if (name === 'localhost' || /\.(localhost|local|internal)$/.test(name))
    return `${host} names this machine or its local network and can never be reached.`;
  return null;
}
