import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Addresses that are not on the public internet: loopback, private, link-local (cloud metadata
 * services live at 169.254.169.254), shared (CGNAT), multicast, reserved and documentation ranges.
 * IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4) are judged by the IPv4
 * address they carry, so ::ffff:127.0.0.1 is as private as 127.0.0.1.
 */
const IPV4_RANGES: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

const IPV6_RANGES: readonly (readonly [string, number])[] = [
  // ::/96 holds the unspecified address, loopback and the deprecated IPv4-compatible form (::127.0.0.1).
  ['::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:2::', 48], ['2001:db8::', 32], ['3fff::', 20],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];

function blockList(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of IPV4_RANGES) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of IPV6_RANGES) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const NON_PUBLIC = blockList();

/** Whether an IP address (v4 or v6, with or without brackets or a zone) is anything but a public one; false for a name. */
export function isPrivateAddress(address: string): boolean {
  const ip = literalAddress(address);
  if (ip === null) return false;
  if (isIPv4(ip)) return NON_PUBLIC.check(ip, 'ipv4');
  const words = ipv6Words(ip);
  const embedded = embeddedIpv4(words);
  if (embedded !== null) return NON_PUBLIC.check(embedded, 'ipv4');
  return NON_PUBLIC.check(ip, 'ipv6');
}

/** The IP address a host names literally (brackets and an IPv6 zone dropped), or null for a name. */
export function literalAddress(host: string): string | null {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  return isIP(bare) ? bare : null;
}

/** localhost and its subdomains always mean this machine (RFC 6761), whatever a resolver says. */
export function isLocalhostName(host: string): boolean {
  return /(^|\.)localhost\.?$/i.test(host);
}

function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address inside an IPv4-mapped, IPv4-translated, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
function embeddedIpv4(words: number[]): string | null {
  const quad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return quad(words[6]!, words[7]!);
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return quad(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return quad(words[6]!, words[7]!);
  if (words[0] === 0x2002) return quad(words[1]!, words[2]!);
  return null;
}
