import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type PeerCertificate, type TLSSocket, rootCertificates } from 'node:tls';
import { formatDuration } from '../domain/monitors/pings.js';
import { type OutboundGuard, guardFor, refusalIn } from '../outbound/guard.js';
import type { PrivateTargets } from '../outbound/policy.js';
import { type JsonAssertion, jsonAssertionFailure } from './json-query.js';

export interface HttpCheckRequest {
  url: string;
  method: 'GET' | 'HEAD' | 'POST';
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  followRedirects: boolean;
  verifySsl: boolean;
  /** Empty means any 2xx. */
  expectedStatus: readonly number[];
  keyword: string | null;
  keywordAbsent: boolean;
  /** A JMESPath query on the JSON body and what its result must be; none when absent. */
  json?: JsonAssertion | null;
}

export interface CheckerEnvironment {
  /** Extra trusted CA certificates (PEM), beside the system's. */
  extraCaPem: string | null;
  /** VIGIL_PRIVATE_TARGETS: whether checks may reach private and loopback addresses. */
  privateTargets: PrivateTargets;
  userAgent: string;
}

export interface HttpTiming {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
  download_ms: number | null;
}

export interface HttpCheckOutcome {
  is_up: boolean;
  status_code: number | null;
  response_time_ms: number;
  /** Why the check failed, as a person reads it; null when up. */
  error: string | null;
  tls_error: string | null;
  ssl_expires_at: string | null;
  ssl_issuer: string | null;
  final_url: string;
  redirect_chain: string[];
  method_used: string;
  timing: HttpTiming;
  /** The checker itself could not check (refused target, bad URL): not the target's fault. */
  probe_error: boolean;
}

const MAX_REDIRECTS = 10;
const BODY_LIMIT = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

class CheckFailure extends Error {
  constructor(
    message: string,
    readonly tls = false,
    readonly probe = false,
  ) {
    super(message);
  }
}

interface Hop {
  status: number;
  location: string | null;
  body: string;
  certificate: PeerCertificate | null;
  timing: HttpTiming;
}

/**
 * One uptime check: the request with its method, headers and body; redirects followed by hand (at
 * most 10, never from https down to http, custom headers only to the original origin); the status,
 * keyword, JSON query and TLS verdicts; the peer certificate's expiry whether or not it verifies. Every hop
 * connects through the outbound guard, so a redirect to a refused address is refused too.
 */
export async function runHttpCheck(request: HttpCheckRequest, env: CheckerEnvironment, guard: OutboundGuard = guardFor(env.privateTargets, 'check')): Promise<HttpCheckOutcome> {
  const started = performance.now();
  const deadline = Date.now() + request.timeoutMs;
  const chain: string[] = [];
  let url: URL;
  let method: string = request.method;
  let body = request.body;
  let certificate: PeerCertificate | null = null;
  let timing: HttpTiming = { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null };
  const outcome = (fields: Partial<HttpCheckOutcome>): HttpCheckOutcome => ({
    is_up: false, status_code: null, error: null, tls_error: null, probe_error: false,
    ssl_expires_at: certificate ? certificateExpiry(certificate) : null, ssl_issuer: certificate ? certificateIssuer(certificate) : null,
    final_url: url?.href ?? request.url, redirect_chain: chain, method_used: method, timing,
    response_time_ms: Math.round(performance.now() - started), ...fields,
  });
  try {
    url = new URL(request.url);
  } catch {
    return outcome({ error: 'the URL is not valid', probe_error: true });
  }
  const origin = url.origin;
  try {
    for (let hops = 0; ; hops += 1) {
      const headers = { 'User-Agent': env.userAgent, ...(url.origin === origin ? request.headers : {}) };
      let hop: Hop;
      try {
        hop = await requestOnce(url, method, headers, body, deadline, request, env, guard);
      } catch (error) {
        // A certificate that fails verification is still read, so its expiry is known.
        if (error instanceof CheckFailure && error.tls && url.protocol === 'https:') certificate = await readCertificate(url, deadline, guard).catch(() => null);
        throw error;
      }
      timing = hop.timing;
      if (hop.certificate) certificate = hop.certificate;
      if (request.followRedirects && REDIRECTS.has(hop.status) && hop.location) {
        if (hops >= MAX_REDIRECTS) throw new CheckFailure(`more than ${MAX_REDIRECTS} redirects`);
        const next = new URL(hop.location, url);
        if (url.protocol === 'https:' && next.protocol === 'http:') throw new CheckFailure(`refused a redirect from https to http (${next.href})`);
        chain.push(url.href);
        url = next;
        if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
          method = 'GET';
          body = null;
        }
        continue;
      }
      const statusOk = request.expectedStatus.length === 0 ? hop.status >= 200 && hop.status < 300 : request.expectedStatus.includes(hop.status);
      if (!statusOk) return outcome({ status_code: hop.status, error: `HTTP ${hop.status}, expected ${describeExpected(request.expectedStatus)}` });
      if (request.keyword !== null) {
        const found = hop.body.includes(request.keyword);
        if (found === request.keywordAbsent) {
          const error = request.keywordAbsent ? `keyword "${request.keyword}" found in the response` : `keyword "${request.keyword}" not found in the response`;
          return outcome({ status_code: hop.status, error });
        }
      }
      const jsonFailure = request.json ? jsonAssertionFailure(hop.body, request.json) : null;
      if (jsonFailure !== null) return outcome({ status_code: hop.status, error: jsonFailure });
      return outcome({ is_up: true, status_code: hop.status });
    }
  } catch (error) {
    if (error instanceof CheckFailure) return outcome({ error: error.message, tls_error: error.tls ? error.message : null, probe_error: error.probe });
    return outcome({ error: error instanceof Error ? error.message : String(error) });
  }
}

function describeExpected(expected: readonly number[]): string {
  if (expected.length === 0) return '2xx';
  return expected.length === 1 ? String(expected[0]) : `${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}`;
}

function certificateExpiry(certificate: PeerCertificate): string | null {
  const expires = Date.parse(certificate.valid_to);
  return Number.isNaN(expires) ? null : new Date(expires).toISOString();
}

function certificateIssuer(certificate: PeerCertificate): string | null {
  const issuer = certificate.issuer as unknown as Record<string, string | undefined> | undefined;
  return issuer?.['O'] ?? issuer?.['CN'] ?? null;
}

function trustedCas(env: CheckerEnvironment): string[] | undefined {
  return env.extraCaPem ? [...rootCertificates, env.extraCaPem] : undefined;
}

function requestOnce(url: URL, method: string, headers: Record<string, string>, body: string | null, deadline: number, request: HttpCheckRequest, env: CheckerEnvironment, guard: OutboundGuard): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const t0 = performance.now();
    const timing: HttpTiming = { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null };
    const since = () => Math.round(performance.now() - t0);
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      reject(new CheckFailure(`timed out after ${formatDuration(request.timeoutMs)}`));
      return;
    }
    const secure = url.protocol === 'https:';
    const options = {
      method,
      headers: body !== null ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } : headers,
      // An agent of its own, so every check makes (and times) its own connection.
      agent: guard.agent(url.protocol),
      ...(secure ? { rejectUnauthorized: request.verifySsl, servername: isIP(host) ? undefined : host, ...(trustedCas(env) ? { ca: trustedCas(env) } : {}) } : {}),
    };
    const req = (secure ? https : http).request(url, options, (res: IncomingMessage) => {
      timing.ttfb_ms = since();
      const certificate = secure ? (res.socket as TLSSocket).getPeerCertificate() : null;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => {
        clearTimeout(timer);
        timing.download_ms = since() - (timing.ttfb_ms ?? 0);
        resolve({
          status: res.statusCode ?? 0,
          location: typeof res.headers.location === 'string' ? res.headers.location : null,
          body: Buffer.concat(chunks).toString('utf8'),
          certificate: certificate && Object.keys(certificate).length > 0 ? certificate : null,
          timing,
        });
      });
      res.on('error', (error) => reject(error));
    });
    const timer = setTimeout(() => req.destroy(new CheckFailure(`timed out after ${formatDuration(request.timeoutMs)}`)), remaining);
    req.on('socket', (socket) => {
      socket.on('lookup', () => (timing.dns_ms = since()));
      socket.on('connect', () => (timing.connect_ms = since()));
      socket.on('secureConnect', () => (timing.tls_ms = since()));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const refused = refusalIn(error);
      reject(error instanceof CheckFailure ? error : refused !== null ? new CheckFailure(refused, false, true) : describeNetworkError(error, host));
    });
    if (body !== null) req.write(body);
    req.end();
  });
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_REVOKED', 'CERT_UNTRUSTED',
]);

function describeNetworkError(error: NodeJS.ErrnoException, host: string): CheckFailure {
  const code = error.code ?? '';
  if (TLS_CODES.has(code) || /certificate|tls|ssl/i.test(error.message)) return new CheckFailure(`TLS error: ${error.message}`, true);
  if (code === 'ECONNREFUSED') return new CheckFailure(`connection refused by ${host}`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new CheckFailure(`DNS lookup failed for ${host}`);
  if (code === 'ECONNRESET') return new CheckFailure(`connection reset by ${host}`);
  return new CheckFailure(error.message || code || 'request failed');
}

/** A TLS handshake that does not verify, only to read the certificate a failed check was shown. */
function readCertificate(url: URL, deadline: number, guard: OutboundGuard): Promise<PeerCertificate | null> {
  return new Promise((resolve) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = guard.connectTls({
      host,
      port: Number(url.port || 443),
      rejectUnauthorized: false,
      ...(isIP(host) ? {} : { servername: host }),
    });
    const timer = setTimeout(() => socket.destroy(), Math.max(1, deadline - Date.now()));
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const certificate = socket.getPeerCertificate();
      socket.end();
      resolve(certificate && Object.keys(certificate).length > 0 ? certificate : null);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}
