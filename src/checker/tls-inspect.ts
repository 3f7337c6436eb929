import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { checkServerIdentity, rootCertificates } from 'node:tls';
import type { OutboundGuard } from '../outbound/guard.js';

export interface TlsInspection {
  valid: boolean;
  issuer: string | null;
  subject: string | null;
  sans: string[];
  expires_at: string | null;
  valid_from: string | null;
  days_remaining: number | null;
  chain_valid: boolean;
  self_signed: boolean;
  hostname_match: boolean;
  /** Not exposed by Node 20's X509Certificate; null until it is. */
  signature_algorithm: string | null;
  error: string | null;
}

const DAY_MS = 86_400_000;

/**
 * Connects without verifying, then judges the chain, the name and the dates itself, so every answer
 * has the details. The connection goes through the outbound guard: a refused address is the error.
 */
export async function inspectTls(
  hostname: string,
  port: number,
  options: { extraCaPem: string | null; guard: OutboundGuard; timeoutMs: number; now: Date },
): Promise<TlsInspection> {
  const empty: TlsInspection = {
    valid: false, issuer: null, subject: null, sans: [], expires_at: null, valid_from: null, days_remaining: null,
    chain_valid: false, self_signed: false, hostname_match: false, signature_algorithm: null, error: null,
  };
  return new Promise((resolve) => {
    const socket = options.guard.connectTls({
      host: hostname,
      port,
      rejectUnauthorized: false,
      ...(isIP(hostname) ? {} : { servername: hostname }),
      ...(options.extraCaPem ? { ca: [...rootCertificates, options.extraCaPem] } : {}),
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ ...empty, error: `timed out after ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    socket.once('error', (error: Error) => {
      clearTimeout(timer);
      resolve({ ...empty, error: error.message });
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const peer = socket.getPeerCertificate(true);
      const authorizationError = socket.authorizationError ? String(socket.authorizationError) : null;
      socket.end();
      if (!peer || !peer.raw) return resolve({ ...empty, error: 'the server sent no certificate' });
      const x509 = new X509Certificate(peer.raw);
      const expires = new Date(x509.validTo);
      const days = Math.floor((expires.getTime() - options.now.getTime()) / DAY_MS);
      const hostnameMatch = checkServerIdentity(hostname, peer) === undefined;
      // The chain may verify while only the name fails: that is a name problem, not a chain problem.
      const chainValid = socket.authorized || authorizationError === 'ERR_TLS_CERT_ALTNAME_INVALID' || (authorizationError === null && hostnameMatch);
      const current = expires.getTime() > options.now.getTime() && new Date(x509.validFrom).getTime() <= options.now.getTime();
      resolve({
        valid: chainValid && hostnameMatch && current,
        issuer: firstOf(peer.issuer?.O ?? peer.issuer?.CN),
        subject: firstOf(peer.subject?.CN ?? peer.subject?.O),
        sans: (x509.subjectAltName ?? '').split(',').map((s) => s.trim().replace(/^(DNS|IP Address):/, '')).filter(Boolean),
        expires_at: expires.toISOString(),
        valid_from: new Date(x509.validFrom).toISOString(),
        days_remaining: days,
        chain_valid: chainValid,
        self_signed: x509.checkIssued(x509),
        hostname_match: hostnameMatch,
        signature_algorithm: null,
        error: authorizationError && !chainValid ? authorizationError : current ? null : 'the certificate is not valid at this time',
      });
    });
  });
}

/** Certificate name fields may repeat; the first is the one people mean. */
function firstOf(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
