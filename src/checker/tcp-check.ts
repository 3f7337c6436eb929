import { formatDuration } from '../domain/monitors/pings.js';
import { type OutboundGuard, refusalIn } from '../outbound/guard.js';
import { type ProbeOutcome, probeOutcome } from './probe.js';

export interface TcpCheckRequest {
  host: string;
  port: number;
  timeoutMs: number;
}

/**
 * One TCP check: up when a connection to host:port opens within the timeout, which is also the
 * response time. Nothing is sent; the socket is closed at once. The connection goes through the
 * outbound guard, so under VIGIL_PRIVATE_TARGETS=deny a private or loopback target is refused.
 */
export function runTcpCheck(request: TcpCheckRequest, guard: OutboundGuard): Promise<ProbeOutcome> {
  const started = performance.now();
  const target = `${request.host.includes(':') ? `[${request.host}]` : request.host}:${request.port}`;
  return new Promise((resolve) => {
    const socket = guard.connectTcp({ host: request.host, port: request.port });
    const finish = (outcome: ProbeOutcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(probeOutcome(started, { error: `timed out after ${formatDuration(request.timeoutMs)} connecting to ${target}` })), request.timeoutMs);
    socket.once('connect', () => finish(probeOutcome(started, { is_up: true })));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const refused = refusalIn(error);
      finish(probeOutcome(started, refused !== null ? { error: refused, probe_error: true } : { error: describeTcpError(error, request.host, target) }));
    });
  });
}

function describeTcpError(error: NodeJS.ErrnoException, host: string, target: string): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${target}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS lookup failed for ${host}`;
    case 'ECONNRESET':
      return `connection reset by ${target}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${target} is unreachable`;
    default:
      return error.message || error.code || 'connection failed';
  }
}
