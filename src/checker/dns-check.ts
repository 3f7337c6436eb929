import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { DnsRecordType } from '../domain/monitors/monitor-config.js';
import { formatDuration } from '../domain/monitors/pings.js';
import { isPrivateAddress } from '../outbound/addresses.js';
import type { OutboundGuard } from '../outbound/guard.js';
import { type ProbeOutcome, probeOutcome } from './probe.js';

export interface DnsCheckRequest {
  hostname: string;
  recordType: DnsRecordType;
  /** Empty means any answer at all. */
  expected: readonly string[];
  match: 'any' | 'all';
  /** The monitor's own resolver (an IP address, with an optional port); null for the deployment's. */
  resolver: string | null;
  timeoutMs: number;
}

/** A resolver as `1.2.3.4`, `1.2.3.4:5353`, `2001:db8::1` or `[2001:db8::1]:5353`; null when it is none of these. */
export function parseResolver(text: string): { address: string; port: number } | null {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(text);
  const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]] : withPort ? [withPort[1]!, withPort[2]] : [text, undefined];
  const number = port === undefined ? 53 : Number(port);
  if (!isIP(address) || number < 1 || number > 65535) return null;
  return { address, port: number };
}

/**
 * One DNS check: asks for one record type and compares the answers with the expected values (any
 * one of them, or all of them). What the name resolves to is only compared, never connected to.
 * The query goes to the monitor's own resolver when it has one (through the outbound guard, so a
 * private resolver is refused under VIGIL_PRIVATE_TARGETS=deny), else to VIGIL_DNS_SERVERS (the
 * operator's choice, as for the check-dns tool), else to the system's resolvers.
 */
export async function runDnsCheck(request: DnsCheckRequest, deploymentServers: readonly string[] | null, guard: OutboundGuard): Promise<ProbeOutcome> {
  const started = performance.now();
  const resolver = new Resolver({ timeout: request.timeoutMs, tries: 1 });
  if (request.resolver !== null) {
    const own = parseResolver(request.resolver);
    if (own === null) return probeOutcome(started, { error: `the resolver ${request.resolver} is not an IP address`, probe_error: true });
    const refused = guard.refusalOfHost(own.address);
    if (refused) return probeOutcome(started, { error: refused.message, probe_error: true });
    resolver.setServers([own.address.includes(':') ? `[${own.address}]:${own.port}` : `${own.address}:${own.port}`]);
  } else if (deploymentServers && deploymentServers.length > 0) {
    resolver.setServers([...deploymentServers]);
  }
  const record = `${request.recordType} record of ${request.hostname}`;
  let answers: string[];
  try {
    answers = await lookup(resolver, request.hostname, request.recordType);
  } catch (error) {
    return probeOutcome(started, { error: describeDnsError(error as NodeJS.ErrnoException, request.hostname, record, request.timeoutMs) });
  }
  if (answers.length === 0) return probeOutcome(started, { error: `no ${record}` });
  const found = new Set(answers.map((answer) => normalise(request.recordType, answer)));
  const wanted = request.expected.map((value) => normalise(request.recordType, value));
  const matches = (value: string) => found.has(value) || (request.recordType === 'MX' && [...found].some((answer) => answer.endsWith(` ${value}`)));
  const passes = wanted.length === 0 || (request.match === 'all' ? wanted.every(matches) : wanted.some(matches));
  if (passes) return probeOutcome(started, { is_up: true });
  const expected = `${wanted.length > 1 ? `${request.match} of ` : ''}${request.expected.join(', ')}`;
  // Where checks may not reach private addresses, a check's result must not map them either.
  const shown = answers.map((answer) => (!guard.allowsPrivate && isPrivateAddress(answer) ? 'a private address' : answer));
  return probeOutcome(started, { error: `${record} is ${shown.join(', ')}; expected ${expected}` });
}

/** The answers as text: addresses, names, `priority exchange` for MX, and each TXT record's strings joined. */
async function lookup(resolver: Resolver, hostname: string, type: DnsRecordType): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(hostname);
    case 'AAAA':
      return resolver.resolve6(hostname);
    case 'CNAME':
      return resolver.resolveCname(hostname);
    case 'MX':
      return (await resolver.resolveMx(hostname)).sort((a, b) => a.priority - b.priority).map((mx) => `${mx.priority} ${mx.exchange}`);
    case 'TXT':
      return (await resolver.resolveTxt(hostname)).map((chunks) => chunks.join(''));
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}

/** Names compare without case or a trailing dot, IPv6 addresses in their shortest form; TXT exactly. */
function normalise(type: DnsRecordType, value: string): string {
  if (type === 'TXT') return value;
  const trimmed = value.trim().toLowerCase().replace(/\.$/, '');
  if (type === 'AAAA' && isIP(trimmed) === 6) return new URL(`http://[${trimmed}]/`).hostname.slice(1, -1);
  return trimmed;
}

function describeDnsError(error: NodeJS.ErrnoException, hostname: string, record: string, timeoutMs: number): string {
  switch (error.code) {
    case 'ENOTFOUND':
      return `${hostname} does not exist (NXDOMAIN)`;
    case 'ENODATA':
      return `no ${record}`;
    case 'ETIMEOUT':
      return `DNS query for the ${record} timed out after ${formatDuration(timeoutMs)}`;
    case 'ECONNREFUSED':
      return `the resolver refused the query for the ${record}`;
    case 'ESERVFAIL':
      return `the resolver failed to answer for the ${record} (SERVFAIL)`;
    case 'EREFUSED':
      return `the resolver refused to answer for the ${record} (REFUSED)`;
    default:
      return `DNS query for the ${record} failed: ${error.code ?? error.message}`;
  }
}
