import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * VIGIL_TRUST_PROXY: which hops in front of Vigil are its own proxies. Either the nearest `hops`
 * of them, whatever their addresses (0: none, the default; `true` is 1), or every hop whose
 * address is in `ranges` (addresses and CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustedProxies = { hops: number } | { ranges: readonly string[] };

/** The names Express's `trust proxy` (proxy-addr) gives these ranges, as operators know them. */
const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const MAX_HOPS = 10;

/** The setting as written, or why it cannot be read. */
export function parseTrustedProxies(value: string): TrustedProxies | { error: string } {
  const text = value.trim();
  if (text === '' || text === 'false') return { hops: 0 };
  if (text === 'true') return { hops: 1 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_HOPS ? { hops } : { error: `a hop count is 0 to ${MAX_HOPS}, got ${text}` };
  }
  const ranges = text.split(',').map((entry) => entry.trim().toLowerCase());
  const bad = ranges.find((entry) => !NAMED_RANGES[entry] && subnet(entry) === null);
  if (bad !== undefined) return { error: `${bad === '' ? 'an empty entry' : bad} is not an IP address, a CIDR range, loopback, linklocal or uniquelocal` };
  return { ranges };
}

/** Whether any X-Forwarded-For is read at all (Koa's `app.proxy`, which also lets it read X-Forwarded-Proto). */
export function trustsAnyProxy(trusted: TrustedProxies): boolean {
  return 'ranges' in trusted || trusted.hops > 0;
}

/**
 * The client's address as Vigil counts it (the failed-authentication throttle, a ping's
 * `request_ip`, Koa's `ctx.ip`), from the socket's peer and X-Forwarded-For, as Express's `trust
 * proxy` (proxy-addr) finds it: starting from the peer, step left through X-Forwarded-For for as long
 * as the hop just passed is a trusted proxy; the first hop that is not one is the client. A proxy
 * appends the address it was reached from, so everything left of what the nearest trusted proxies
 * wrote is whatever the client claimed, and is never reached.
 *
 * An entry that is not an IP address (a name, `unknown`, a port appended, an empty item) cannot be
 * a client's address: the walk stops before it, at the proxy that handed it over. Its requests are
 * then counted together under that proxy's address, so a made-up value buys a client no count of
 * its own.
 */
export function clientAddressResolver(trusted: TrustedProxies): (request: IncomingMessage) => string {
  if ('hops' in trusted && trusted.hops === 0) return (request) => request.socket.remoteAddress ?? '';
  const isTrusted = 'hops' in trusted ? (_address: string, hop: number) => hop < trusted.hops : inRanges(trusted.ranges);
  return (request) => clientAddress(request.socket.remoteAddress ?? '', request.headers['x-forwarded-for'], isTrusted);
}

/**
 * Whether the connection's peer is one of the proxies: only then are the X-Forwarded-Proto and
 * X-Forwarded-Host it sends the client's, as Koa takes them once `app.proxy` is set.
 */
export function peerIsProxyResolver(trusted: TrustedProxies): (request: IncomingMessage) => boolean {
  if ('hops' in trusted) return () => trusted.hops > 0;
  const isTrusted = inRanges(trusted.ranges);
  return (request) => isTrusted(request.socket.remoteAddress ?? '');
}

function clientAddress(peer: string, forwardedFor: string | string[] | undefined, isTrusted: (address: string, hop: number) => boolean): string {
  const forwarded = forwardedFor === undefined ? [] : (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  let address = peer;
  for (let hop = 0; isTrusted(address, hop) && hop < forwarded.length; hop++) {
    const next = forwarded[forwarded.length - 1 - hop]!.trim();
    if (!isIP(next)) return address;
    address = next;
  }
  return address;
}

function inRanges(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of ranges.flatMap((range) => NAMED_RANGES[range] ?? [range])) {
    const { network, prefix, family } = subnet(entry)!;
    list.addSubnet(network, prefix, family);
  }
  return (address) => {
    // A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d; the ranges name it as a.b.c.d.
    const plain = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}

function subnet(entry: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [network = '', prefixText, ...rest] = entry.split('/');
  if (rest.length > 0 || !isIP(network)) return null;
  const family = isIPv4(network) ? 'ipv4' : 'ipv6';
  const bits = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: bits, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null;
  return { network, prefix: Number(prefixText), family };
}
